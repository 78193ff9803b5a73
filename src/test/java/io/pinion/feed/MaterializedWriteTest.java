package io.pinion.feed;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.LongStream;

import jakarta.inject.Inject;

import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.junit.jupiter.api.Test;

import io.pinion.hbase.HBaseCalls;
import io.pinion.topology.HBaseRole;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;

/**
 * Writes to the materialized feed on the primary: chunks that share pins (two visits before the first chunk was
 * persisted) leave one row per pin even when written at the same moment, a retried older chunk does not bring old
 * copies back, and the feed is trimmed to its maximum, oldest first.
 */
@QuarkusTest
class MaterializedWriteTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @Inject
    MaterializedFeed materialized;
    @Inject
    FeedTables tables;
    @Inject
    FeedConfig config;

    @Test
    void chunksWrittenAtTheSameMomentLeaveOneRowPerPin() {
        long user = someUser();
        for (int round = 0; round < 5; round++) {
            // eight visits' chunks, each sharing half of its pins with the next, written at once
            List<Uni<Void>> writes = new ArrayList<>();
            for (int visit = 0; visit < 8; visit++) {
                writes.add(materialized.write(user, 1_000_000 + round * 10L + visit, entries(user, 1 + visit * 10, 20 + visit * 10)));
            }
            Uni.join().all(writes).andFailFast().await().atMost(WAIT);
            List<Long> rows = rowPins(user);
            assertEquals(90, rows.stream().distinct().count(), "round " + round);
            assertEquals(90, rows.size(), "one row per pin, round " + round);
        }
        assertEquals(LongStream.rangeClosed(71, 90).map(pin -> user * 1000 + pin).boxed().toList(),
                shownPins(user).subList(0, 20), "the newest chunk first, in its order");
    }

    @Test
    void aRetriedOlderChunkDoesNotBringBackCopiesAndTheFeedIsTrimmedOldestFirst() {
        long user = someUser();
        materialized.write(user, 2_000, entries(user, 1, 10)).await().atMost(WAIT);
        materialized.write(user, 1_000, entries(user, 1, 10)).await().atMost(WAIT);
        assertEquals(10, rowPins(user).size(), "the retried older chunk left no second copies");

        int max = config.materializedMax();
        List<Long> newestFirst = new ArrayList<>(entries(user, 1, 10).stream().map(FeedEntry::pin).toList());
        long chunk = 3_000;
        for (int from = 11; from <= max + 100; from += 500, chunk++) {
            List<FeedEntry> written = entries(user, from, from + 499);
            materialized.write(user, chunk, written).await().atMost(WAIT);
            newestFirst.addAll(0, written.stream().map(FeedEntry::pin).toList());
        }
        assertEquals(newestFirst.subList(0, max), rowPins(user), "trimmed to the maximum, the oldest entries first");
    }

    private static long someUser() {
        return ThreadLocalRandom.current().nextLong(1_000_000, 9_000_000);
    }

    /** Pins {@code user*1000 + from … user*1000 + to}, in that order. */
    private static List<FeedEntry> entries(long user, int from, int to) {
        List<FeedEntry> entries = new ArrayList<>();
        for (int pin = from; pin <= to; pin++) {
            entries.add(new FeedEntry(user * 1000 + pin, FeedSource.FOLLOWING, 1.0 / pin, 7, 8));
        }
        return entries;
    }

    private List<Long> shownPins(long user) {
        return materialized.all(user).await().atMost(WAIT).stream().map(s -> s.entry().pin()).toList();
    }

    /** Every stored row's pin on the primary, newest first (copies included). */
    private List<Long> rowPins(long user) {
        Scan scan = new Scan().setStartStopRowForPrefixScan(MaterializedKey.prefix(user))
                .addColumn(FeedTables.MATERIALIZED_FAMILY, MaterializedFeed.COLUMN);
        List<Result> results = tables.materialized(HBaseRole.MATERIALIZED_PRIMARY)
                .chain(table -> HBaseCalls.uni(() -> table.scanAll(scan))).await().atMost(WAIT);
        return results.stream().map(result -> FeedEntry.of(result.value()).pin()).toList();
    }
}
