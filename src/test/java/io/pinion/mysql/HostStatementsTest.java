package io.pinion.mysql;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class HostStatementsTest {

    private static String host(int shard) {
        return shard < 32 ? "mysql-1" : "mysql-2";
    }

    @Test
    void theShardsOfOneHostShareAStatement() {
        Map<Integer, List<Long>> byShard = new LinkedHashMap<>();
        byShard.put(3, List.of(1L, 2L));
        byShard.put(40, List.of(3L));
        byShard.put(7, List.of(4L));
        byShard.put(63, List.of(5L, 6L));

        List<Map<Integer, List<Long>>> statements = HostStatements.of(byShard, HostStatementsTest::host, 256);

        assertEquals(2, statements.size());
        assertEquals(List.of(3, 7), List.copyOf(statements.get(0).keySet()));
        assertEquals(List.of(40, 63), List.copyOf(statements.get(1).keySet()));
        assertEquals(List.of(1L, 2L), statements.get(0).get(3));
    }

    @Test
    void aStatementStopsBeforeTheShardThatWouldTakeItPastTheLimitAndNeverSplitsAShard() {
        Map<Integer, List<Long>> byShard = new LinkedHashMap<>();
        byShard.put(1, List.of(1L, 2L, 3L));
        byShard.put(2, List.of(4L, 5L));
        byShard.put(3, List.of(6L, 7L, 8L, 9L, 10L, 11L));
        byShard.put(4, List.of(12L));

        List<Map<Integer, List<Long>>> statements = HostStatements.of(byShard, HostStatementsTest::host, 5);

        assertEquals(3, statements.size());
        assertEquals(List.of(1, 2), List.copyOf(statements.get(0).keySet()));
        assertEquals(List.of(3), List.copyOf(statements.get(1).keySet()), "six keys: a statement of its own");
        assertEquals(List.of(4), List.copyOf(statements.get(2).keySet()));
    }
}
