package io.pinion.feed.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import jakarta.inject.Inject;

import org.apache.hadoop.hbase.client.Result;
import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.MeterRegistry;
import io.pinion.feed.FeedEntry;
import io.pinion.feed.FeedSource;
import io.pinion.hbase.HBaseCalls;
import io.pinion.stack.StackTest;
import io.pinion.topology.HBaseRole;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The materialized feed's read-ahead on the real stack: a first page reads its page and the window beyond it in one
 * scan; the session's next pages inside the window read nothing from HBase and are the same entries a scan would
 * give; a first page always reads HBase (a chunk written since is on it); a removal on this instance drops the
 * window, so the next page reads HBase again and does not show what was removed.
 */
@QuarkusTest
@StackTest
class ReadAheadTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @Inject
    MaterializedFeed materialized;
    @Inject
    MaterializedWriter writer;
    @Inject
    MeterRegistry registry;
    @Inject
    FeedTables tables;

    @Test
    void nextPagesInsideTheWindowReadNothingAndMatchAScan() {
        long user = ThreadLocalRandom.current().nextLong(100_000_000, 900_000_000);
        for (int chunk = 0; chunk < 4; chunk++) {
            writer.write(user, 10_000 + chunk, entries(user, chunk * 25, 25)).await().atMost(WAIT);
        }
        double rows = rowsRead();
        List<MaterializedFeed.Stored> first = materialized.page(user, null, 11).await().atMost(WAIT);
        assertEquals(11, first.size());
        assertEquals(11 + 30, rowsRead() - rows, 0.0, "the page and three pages beyond it, in one scan");

        List<Long> walked = new ArrayList<>(first.subList(0, 10).stream().map(s -> s.entry().pin()).toList());
        long cursor = first.get(9).position();
        double hits = windowPages("hit");
        rows = rowsRead();
        for (int page = 0; page < 3; page++) {
            List<MaterializedFeed.Stored> next = materialized.page(user, cursor, 11).await().atMost(WAIT);
            assertEquals(11, next.size(), "page " + page);
            next.subList(0, 10).forEach(s -> walked.add(s.entry().pin()));
            cursor = next.get(9).position();
        }
        assertEquals(0, rowsRead() - rows, 0.0, "the next pages came from the window");
        assertEquals(3, windowPages("hit") - hits, 0.0);
        List<Long> scanned = MaterializedFeed.stored(scanAll(user)).stream().limit(40)
                .map(s -> s.entry().pin()).toList();
        assertEquals(scanned, walked, "the same entries, in the same order, as one scan of the feed");

        // a chunk written now is on the next first page: first pages never come from the window
        writer.write(user, 20_000, entries(user, 500, 3)).await().atMost(WAIT);
        rows = rowsRead();
        List<MaterializedFeed.Stored> again = materialized.page(user, null, 11).await().atMost(WAIT);
        assertEquals(user * 1000 + 500, again.get(0).entry().pin());
        assertTrue(rowsRead() - rows > 0, "a first page reads HBase");

        // a removal on this instance drops the window: the next page reads HBase and does not show the removed pins
        long removed = again.get(10).entry().pin();
        long afterCursor = again.get(9).position();
        writer.removeWhere(user, entry -> entry.pin() == removed).await().atMost(WAIT);
        double misses = windowPages("miss");
        List<MaterializedFeed.Stored> fresh = materialized.page(user, afterCursor, 11).await().atMost(WAIT);
        assertEquals(1, windowPages("miss") - misses, 0.0);
        assertFalse(fresh.stream().anyMatch(s -> s.entry().pin() == removed), "the removed pin is not shown");
    }

    /** Every row of the user's feed on the primary, one scan. */
    private List<Result> scanAll(long user) {
        return tables.materialized(HBaseRole.MATERIALIZED_PRIMARY)
                .chain(table -> HBaseCalls.uni(
                        () -> table.scanAll(MaterializedFeed.scan(user, null, Integer.MAX_VALUE))))
                .await().atMost(WAIT);
    }

    private double rowsRead() {
        return registry.get("pinion.feed.materialized.rows.read").tag("by", "page").counter().count();
    }

    private double windowPages(String outcome) {
        return registry.get("pinion.feed.window.pages").tag("outcome", outcome).counter().count();
    }

    /** {@code n} entries, pins {@code user*1000 + from …}, in that order. */
    private static List<FeedEntry> entries(long user, int from, int n) {
        List<FeedEntry> entries = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            entries.add(new FeedEntry(user * 1000 + from + i, FeedSource.FOLLOWING, 1.0, 7, 8));
        }
        return entries;
    }
}
