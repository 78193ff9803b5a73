package io.pinion.pins;

import static io.pinion.TestApi.createBoard;
import static io.pinion.TestApi.createPin;
import static io.pinion.TestApi.newUser;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.pinion.TestApi.TestUser;
import io.pinion.id.ObjectType;
import io.pinion.id.PinionId;
import io.pinion.mysql.ShardDatabase;
import io.pinion.mysql.ShardSql;
import io.pinion.stack.StackTest;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * A board of 50,000 pins whose entries sit one sequence apart (no gap anywhere): moves into its middle spread only
 * the entries around the anchor, so each answers fast and touches a bounded number of rows, however often the owner
 * moves pins back and forth; the order stays exact. (Renumbering the whole board one row at a time ran past the
 * statement time limit.)
 */
@QuarkusTest
@StackTest
class BigBoardReorderTest {

    private static final int ENTRIES = 50_000;

    @Inject
    ShardSql sql;

    @Test
    void movesInAFiftyThousandPinBoardWithoutGapsStayFastAndExact() {
        TestUser owner = newUser();
        String board = createBoard(owner, "Huge");
        String a = createPin(owner, board, "moving a");
        String b = createPin(owner, board, "moving b");
        PinionId boardId = PinionId.parse(board);
        String table = ShardDatabase.table(boardId.shard(), "board_has_pins");
        // pin ids of this shard far above the real ones (only the board's list holds them)
        long fake = PinionId.of(boardId.shard(), ObjectType.PIN, 1_000_000_000L).value();
        // 50,000 entries below the two pins, one sequence apart: every move among them needs room made first
        sql.query(
                        boardId.shard(),
                        "INSERT INTO " + table + " (from_id, to_id, sequence) SELECT ?, ? + seq, 1000000 + seq"
                                + " FROM " + table.substring(0, table.indexOf('.')) + ".seq_1_to_" + ENTRIES,
                        Tuple.of(boardId.value(), fake))
                .await()
                .atMost(Duration.ofSeconds(60));

        long first = 0;
        long slowest = 0;
        for (int i = 0; i < 60; i++) {
            String moving = i % 2 == 0 ? a : b;
            long anchor = fake + ENTRIES / 2 + (i % 3);
            long started = System.nanoTime();
            owner.as().body(Map.of(i % 4 < 2 ? "after" : "before", PinionId.decode(anchor).toString()))
                    .put("/v1/boards/" + board + "/pins/" + moving + "/position").then().statusCode(204);
            long tookMs = (System.nanoTime() - started) / 1_000_000;
            if (i == 0) {
                first = tookMs; // the board has no room anywhere: the first move renumbers all of it
            } else {
                slowest = Math.max(slowest, tookMs);
            }
            List<Long> order = around(table, boardId, anchor);
            int at = order.indexOf(anchor);
            int placed = order.indexOf(PinionId.parse(moving).value());
            assertEquals(i % 4 < 2 ? at + 1 : at - 1, placed, "move " + i + ": " + order);
        }
        System.out.printf(
                "60 moves in a %,d-pin board without gaps: the first %d ms, the slowest of the others %d ms%n",
                ENTRIES, first, slowest);
        assertTrue(slowest < 1_000, "a move after the first took " + slowest + " ms");
        Row counts = sql.query(
                        boardId.shard(),
                        "SELECT COUNT(*), COUNT(DISTINCT sequence) FROM " + table + " WHERE from_id = ?",
                        Tuple.of(boardId.value()))
                .await()
                .atMost(Duration.ofSeconds(10))
                .iterator()
                .next();
        assertEquals(counts.getLong(0), counts.getLong(1), "every entry has its own place");
    }

    /** The ids of the three entries on each side of an anchor and the anchor, head first. */
    private List<Long> around(String table, PinionId board, long anchor) {
        long at = sql.query(board.shard(), "SELECT sequence FROM " + table + " WHERE from_id = ? AND to_id = ?",
                Tuple.of(board.value(), anchor)).await().atMost(Duration.ofSeconds(10)).iterator().next().getLong(0);
        List<long[]> rows = new ArrayList<>();
        sql.query(
                        board.shard(),
                        "(SELECT to_id, sequence FROM " + table + " WHERE from_id = ? AND sequence >= ?"
                                + " ORDER BY sequence ASC LIMIT 4) UNION ALL (SELECT to_id, sequence FROM " + table
                                + " WHERE from_id = ? AND sequence < ? ORDER BY sequence DESC LIMIT 3)",
                        Tuple.of(board.value(), at, board.value(), at))
                .await()
                .atMost(Duration.ofSeconds(10))
                .forEach(row -> rows.add(new long[] {row.getLong(0), row.getLong(1)}));
        rows.sort((x, y) -> Long.compare(y[1], x[1]));
        List<Long> ids = new ArrayList<>();
        rows.forEach(row -> ids.add(row[0]));
        return ids;
    }
}
