package io.pinion.feed.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.LongStream;

import jakarta.inject.Inject;

import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.junit.jupiter.api.Test;

import io.pinion.feed.FeedConfig;
import io.pinion.feed.FeedEntry;
import io.pinion.feed.FeedSource;
import io.pinion.hbase.HBaseCalls;
import io.pinion.stack.StackTest;
import io.pinion.topology.HBaseRole;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;

/**
 * Writes to the materialized feed on the primary: chunks that share pins (two visits before the first chunk was
 * persisted) leave one row per pin even when written at the same moment, a retried older chunk does not bring old
 * copies back, the feed is trimmed to its maximum, oldest first, the shown index answers for exactly the entries
 * held, and a write reads only its own chunk's index rows however full the feed is.
 */
@QuarkusTest
@StackTest
class MaterializedWriteTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @Inject
    MaterializedFeed materialized;
    @Inject
    MaterializedWriter writer;
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
                writes.add(writer.write(
                                user, 1_000_000 + round * 10L + visit, entries(user, 1 + visit * 10, 20 + visit * 10))
                        .replaceWithVoid());
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
        writer.write(user, 2_000, entries(user, 1, 10)).await().atMost(WAIT);
        writer.write(user, 1_000, entries(user, 1, 10)).await().atMost(WAIT);
        assertEquals(10, rowPins(user).size(), "the retried older chunk left no second copies");

        int max = config.materializedMax();
        List<Long> newestFirst = new ArrayList<>(entries(user, 1, 10).stream().map(FeedEntry::pin).toList());
        long chunk = 3_000;
        for (int from = 11; from <= max + MaterializedWriter.trimSlack(max) + 1; from += 500, chunk++) {
            List<FeedEntry> written = entries(user, from, from + 499);
            writer.write(user, chunk, written).await().atMost(WAIT);
            newestFirst.addAll(0, written.stream().map(FeedEntry::pin).toList());
        }
        assertEquals(newestFirst.subList(0, max), rowPins(user), "trimmed to the maximum, the oldest entries first");
    }

    @Test
    void theShownIndexHoldsExactlyTheEntriesOfTheFeed() {
        long user = someUser();
        writer.write(user, 5_000, entries(user, 1, 30)).await().atMost(WAIT);
        writer.write(user, 5_001, entries(user, 21, 40)).await().atMost(WAIT);
        List<Long> all = LongStream.rangeClosed(1, 50).map(pin -> user * 1000 + pin).boxed().toList();
        assertEquals(Set.copyOf(all.subList(0, 40)), materialized.shown(user, all).await().atMost(WAIT));

        assertEquals(1, writer.removePin(user, user * 1000 + 25).await().atMost(WAIT), "one copy of the pin");
        assertEquals(
                0, writer.removePin(user, user * 1000 + 25).await().atMost(WAIT), "removing it again removes nothing");
        assertEquals(2, writer.removeWhere(user, entry -> entry.pin() <= user * 1000 + 2).await().atMost(WAIT));
        Set<Long> expected = new HashSet<>(all.subList(2, 40));
        expected.remove(user * 1000 + 25);
        assertEquals(expected, materialized.shown(user, all).await().atMost(WAIT));
        assertEquals(expected, Set.copyOf(rowPins(user)), "the index and the entries agree");

        // a retried write of the chunk that held the purged pin does not bring it back
        writer.write(user, 5_001, entries(user, 21, 40)).await().atMost(WAIT);
        assertEquals(expected, Set.copyOf(rowPins(user)));
        assertEquals(expected, materialized.shown(user, all).await().atMost(WAIT));
    }

    @Test
    void aFeedWrittenBeforeTheIndexIsIndexedAndCountedByItsNextWrite() {
        long user = someUser();
        // entries as an earlier version wrote them: rows of family m only, no index, no count, a copy held twice
        List<Put> old = new ArrayList<>();
        List<FeedEntry> older = entries(user, 1, 20);
        for (int i = 0; i < older.size(); i++) {
            old.add(new Put(new MaterializedKey(user, MaterializedKey.position(100, i)).encode())
                    .addColumn(FeedTables.MATERIALIZED_FAMILY, MaterializedFeed.COLUMN, older.get(i).value()));
        }
        List<FeedEntry> newer = entries(user, 15, 30);
        for (int i = 0; i < newer.size(); i++) {
            old.add(new Put(new MaterializedKey(user, MaterializedKey.position(200, i)).encode())
                    .addColumn(FeedTables.MATERIALIZED_FAMILY, MaterializedFeed.COLUMN, newer.get(i).value()));
        }
        tables.materialized(HBaseRole.MATERIALIZED_PRIMARY).chain(table -> HBaseCalls.uni(() -> table.putAll(old)))
                .await().atMost(WAIT);
        assertEquals(36, rowPins(user).size());

        writer.write(user, 300, entries(user, 31, 35)).await().atMost(WAIT);
        List<Long> all = LongStream.rangeClosed(1, 40).map(pin -> user * 1000 + pin).boxed().toList();
        assertEquals(35, rowPins(user).size(), "one row per pin");
        assertEquals(Set.copyOf(all.subList(0, 35)), materialized.shown(user, all).await().atMost(WAIT));
        // counted: the next writes trim at the maximum from the right count
        long chunk = 400;
        int last = 40 + config.materializedMax() + MaterializedWriter.trimSlack(config.materializedMax()) + 1;
        for (int from = 41; from <= last; from += 500, chunk++) {
            writer.write(user, chunk, entries(user, from, Math.min(from + 499, last))).await().atMost(WAIT);
        }
        assertEquals(config.materializedMax(), rowPins(user).size());
        assertEquals(Set.of(), materialized.shown(user, all).await().atMost(WAIT),
                "the oldest pins were trimmed, index included");
    }

    @Test
    void aWriteReadsOnlyItsOwnChunkWhateverTheSizeOfTheFeed() {
        long small = someUser();
        writer.write(small, 9_000, entries(small, 1, 5)).await().atMost(WAIT);
        long full = someUser();
        long chunk = 10_000;
        for (int from = 1; from <= config.materializedMax(); from += 500, chunk++) {
            writer.write(full, chunk, entries(full, from, from + 499)).await().atMost(WAIT);
        }
        int smallRows = writer.write(small, 20_000, entries(small, 6, 30)).await().atMost(WAIT).rowsRead();
        int fullRows = writer.write(full, 20_000, entries(full, 5_001, 5_025)).await().atMost(WAIT).rowsRead();
        assertEquals(26, smallRows, "the chunk's 25 index rows and the count (a feed of 5 entries)");
        assertEquals(26, fullRows, "the same for a full feed");
        // past the slack, a write also reads the oldest entries it trims, and only those
        int slack = MaterializedWriter.trimSlack(config.materializedMax());
        writer.write(full, 20_001, entries(full, 6_001, 6_000 + slack - 25)).await().atMost(WAIT);
        MaterializedWriter.Written trimming =
                writer.write(full, 20_002, entries(full, 7_001, 7_025)).await().atMost(WAIT);
        assertEquals(slack + 25, trimming.trimmed(), "back to the maximum");
        assertEquals(26 + trimming.trimmed(), trimming.rowsRead());
        assertEquals(config.materializedMax(), rowPins(full).size());
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
