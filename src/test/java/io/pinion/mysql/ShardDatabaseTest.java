package io.pinion.mysql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** Shard database and table names are built in one place, only from valid numbers and names. */
class ShardDatabaseTest {

    @Test
    void namesArePaddedToFiveDigits() {
        assertEquals("db00000", ShardDatabase.name(0));
        assertEquals("db00042", ShardDatabase.name(42));
        assertEquals("db04095", ShardDatabase.name(4095));
        assertEquals("db65535", ShardDatabase.name(65535));
        assertEquals("`db00007`.`jobs_q12_p3`", ShardDatabase.table(7, "jobs_q12_p3"));
    }

    @Test
    void badShardsAndTableNamesAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> ShardDatabase.name(-1));
        assertThrows(IllegalArgumentException.class, () -> ShardDatabase.name(65536));
        assertThrows(IllegalArgumentException.class, () -> ShardDatabase.table(1, "pins`; DROP TABLE x"));
        assertThrows(IllegalArgumentException.class, () -> ShardDatabase.table(1, "9pins"));
    }
}
