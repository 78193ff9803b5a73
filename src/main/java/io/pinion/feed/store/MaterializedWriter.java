package io.pinion.feed.store;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.AdvancedScanResultConsumer;
import org.apache.hadoop.hbase.client.AsyncTable;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.util.Bytes;

import io.pinion.feed.FeedConfig;
import io.pinion.feed.FeedEntry;
import io.pinion.feed.FeedMetrics;
import io.pinion.hbase.HBaseCalls;
import io.pinion.topology.HBaseRole;
import io.smallrye.mutiny.Uni;

/**
 * Writes of the materialized feed, on the primary (HBase replication copies them to the standby). Each entry has a
 * cell in the shown index ({@link MaterializedKey}): one row per pin whose versions are the chunks holding it
 * (timestamp the chunk id, value the position), and a count row holds how many entries the feed has. So a chunk's
 * write touches only the chunk's pins, whatever the size of the feed:
 * <ol>
 * <li>one put of the entries and their index cells;</li>
 * <li>one multi-get of the chunk's index rows (every version) and the count;</li>
 * <li>one delete of every copy that is not its pin's newest (the entry and its index version), the chunk's own
 * entries included when a newer chunk already holds the pin or the index no longer has the chunk's version (it was
 * removed, by an unfollow or a purge, before this write was retried);</li>
 * <li>the count grows by the pins that were new, and once it is a tenth past {@code pinion.feed.materialized-max}
 * the oldest entries beyond the maximum leave (one reversed scan of just those).</li>
 * </ol>
 * Because every write reads the index after its own put, of two chunks written at the same moment the later read
 * sees both, so copies never outlive the writes that made them. A feed without a count (written before the index, or
 * whose count was lost) is indexed and counted once by a full scan. Idempotent per chunk id.
 */
@ApplicationScoped
public class MaterializedWriter {

    private static final byte[] POSITION = { 'p' };
    static final byte[] COUNT = { 'n' };

    private final FeedTables tables;
    private final FeedConfig config;
    private final FeedMetrics metrics;
    private final FeedWindows windows;

    MaterializedWriter(FeedTables tables, FeedConfig config, FeedMetrics metrics, FeedWindows windows) {
        this.windows = windows;
        this.tables = tables;
        this.config = config;
        this.metrics = metrics;
    }

    /**
     * What a write did: entries new to the feed, older copies removed, oldest entries trimmed, and rows it read (index
     * rows, the count, trimmed entries; every entry when it indexed the feed).
     */
    public record Written(int added, int copiesRemoved, int trimmed, int rowsRead) {
    }

    /** Writes a chunk in its order (see the class comment). */
    public Uni<Written> write(long user, long chunkId, List<FeedEntry> chunk) {
        List<MaterializedFeed.Stored> written = new ArrayList<>(chunk.size());
        for (int i = 0; i < chunk.size(); i++) {
            written.add(new MaterializedFeed.Stored(MaterializedKey.position(chunkId, i), chunk.get(i)));
        }
        List<Put> puts = new ArrayList<>(written.size() * 2);
        for (MaterializedFeed.Stored stored : written) {
            puts.add(entryPut(user, stored));
            puts.add(indexPut(user, stored));
        }
        return primary().chain(table -> call(() -> table.putAll(puts))
                .chain(() -> call(() -> table.getAll(indexGets(user, written))))
                .invoke(results -> metrics.materializedRead(FeedMetrics.MaterializedRead.WRITE, results.size()))
                .chain(results -> {
                    Long count = count(results.get(results.size() - 1));
                    if (count == null || count < 0) {
                        return reindex(table, user);
                    }
                    return settle(table, user, chunkId, written, results.subList(0, written.size()), count);
                }));
    }

    /**
     * Removes the entries that match, e.g. an unfollowed author's pins (one scan of the feed); how many. The user's
     * read-ahead window on this instance goes with them.
     */
    public Uni<Integer> removeWhere(long user, Predicate<FeedEntry> matches) {
        return primary().chain(table -> whole(table, user)
                .chain(stored -> removeCounted(table, user,
                        stored.stream().filter(s -> matches.test(s.entry())).toList())))
                .invoke(() -> windows.forget(user));
    }

    /** Removes every copy of the pin from the user's feed (one get of its index row) and its window; how many. */
    public Uni<Integer> removePin(long user, long pin) {
        return primary().chain(table -> call(() -> table.get(indexGet(user, pin)))
                .invoke(() -> metrics.materializedRead(FeedMetrics.MaterializedRead.PURGE, 1))
                .chain(result -> {
                    List<Delete> deletes = new ArrayList<>();
                    for (Cell cell : versions(result)) {
                        long position = Bytes.toLong(CellUtil.cloneValue(cell));
                        deletes.add(entryDelete(user, position));
                        deletes.add(indexDelete(user, pin, cell.getTimestamp()));
                    }
                    return deleteCounted(table, user, deletes, deletes.size() / 2);
                }))
                .invoke(() -> windows.forget(user));
    }

    /** The copies to delete once the chunk's index rows are read, then the count and the trim. */
    private Uni<Written> settle(AsyncTable<AdvancedScanResultConsumer> table, long user, long chunkId,
            List<MaterializedFeed.Stored> written, List<Result> indexRows, long count) {
        List<Delete> deletes = new ArrayList<>();
        int added = 0;
        int removed = 0;
        for (int i = 0; i < written.size(); i++) {
            MaterializedFeed.Stored mine = written.get(i);
            long pin = mine.entry().pin();
            List<Cell> versions = versions(indexRows.get(i));
            boolean newest = !versions.isEmpty() && versions.get(0).getTimestamp() == chunkId;
            if (!newest) {
                deletes.add(entryDelete(user, mine.position()));
                removed++;
            } else if (versions.size() == 1) {
                added++;
            }
            for (Cell cell : versions.subList(Math.min(1, versions.size()), versions.size())) {
                long position = Bytes.toLong(CellUtil.cloneValue(cell));
                if (position != mine.position()) {
                    deletes.add(entryDelete(user, position));
                    removed++;
                }
                deletes.add(indexDelete(user, pin, cell.getTimestamp()));
            }
        }
        int copies = removed;
        int newPins = added;
        Uni<Void> deleted = deletes.isEmpty() ? Uni.createFrom().voidItem() : call(() -> table.deleteAll(deletes));
        Uni<Long> counted = newPins == 0 ? deleted.replaceWith(count)
                : deleted.chain(() -> call(() -> table.increment(new Increment(MaterializedKey.count(user))
                        .addColumn(FeedTables.SHOWN_FAMILY, COUNT, newPins))))
                        .map(result -> Bytes.toLong(result.getValue(FeedTables.SHOWN_FAMILY, COUNT)));
        return counted.chain(now -> trim(table, user, now))
                .map(trimmed -> new Written(newPins, copies, trimmed, written.size() + 1 + trimmed));
    }

    /**
     * Once the feed is a tenth (at least 25 entries) past the maximum, removes the oldest entries beyond the maximum:
     * one reversed scan of exactly those, one delete. A full feed is trimmed every few writes, not on every one.
     */
    private Uni<Integer> trim(AsyncTable<AdvancedScanResultConsumer> table, long user, long count) {
        int max = config.materializedMax();
        long excess = count - max;
        if (count <= max + trimSlack(max)) {
            return Uni.createFrom().item(0);
        }
        Scan oldest = new Scan().withStartRow(MaterializedFeed.stop(user), false)
                .withStopRow(MaterializedKey.prefix(user), true).setReversed(true)
                .setLimit((int) Math.min(excess, Integer.MAX_VALUE)).setCaching((int) Math.min(excess, 1000))
                .addColumn(FeedTables.MATERIALIZED_FAMILY, MaterializedFeed.COLUMN);
        return call(() -> table.scanAll(oldest)).map(MaterializedFeed::stored)
                .invoke(stored -> metrics.materializedRead(FeedMetrics.MaterializedRead.TRIM, stored.size()))
                .chain(stored -> removeCounted(table, user, stored));
    }

    /** How far past the maximum a feed may grow before it is trimmed back to it. */
    static int trimSlack(int max) {
        return Math.max(25, max / 10);
    }

    /**
     * Indexes and counts a feed that has no count: one scan of every entry; older copies and entries beyond the
     * maximum are deleted, the others get their index cell, and the count is set.
     */
    private Uni<Written> reindex(AsyncTable<AdvancedScanResultConsumer> table, long user) {
        return whole(table, user).chain(stored -> {
            List<MaterializedFeed.Stored> kept = MaterializedFeed.firstOccurrences(stored);
            kept = kept.subList(0, Math.min(kept.size(), config.materializedMax()));
            Set<Long> keptPositions = new HashSet<>();
            List<Put> puts = new ArrayList<>(kept.size() + 1);
            for (MaterializedFeed.Stored entry : kept) {
                keptPositions.add(entry.position());
                puts.add(indexPut(user, entry));
            }
            puts.add(new Put(MaterializedKey.count(user))
                    .addColumn(FeedTables.SHOWN_FAMILY, COUNT, Bytes.toBytes((long) kept.size())));
            List<Delete> deletes = new ArrayList<>();
            for (MaterializedFeed.Stored entry : stored) {
                if (!keptPositions.contains(entry.position())) {
                    deletes.add(entryDelete(user, entry.position()));
                    deletes.add(indexDelete(user, entry.entry().pin(), MaterializedKey.chunkOf(entry.position())));
                }
            }
            int doomed = deletes.size() / 2;
            Uni<Void> deleted = deletes.isEmpty() ? Uni.createFrom().voidItem() : call(() -> table.deleteAll(deletes));
            return deleted.chain(() -> call(() -> table.putAll(puts)))
                    .replaceWith(new Written(kept.size(), doomed, 0, stored.size() + 1));
        });
    }

    /** Deletes the entries and their index versions and lowers the count; how many. */
    private Uni<Integer> removeCounted(AsyncTable<AdvancedScanResultConsumer> table, long user,
            List<MaterializedFeed.Stored> doomed) {
        List<Delete> deletes = new ArrayList<>(doomed.size() * 2);
        for (MaterializedFeed.Stored entry : doomed) {
            deletes.add(entryDelete(user, entry.position()));
            deletes.add(indexDelete(user, entry.entry().pin(), MaterializedKey.chunkOf(entry.position())));
        }
        return deleteCounted(table, user, deletes, doomed.size());
    }

    private Uni<Integer> deleteCounted(AsyncTable<AdvancedScanResultConsumer> table, long user, List<Delete> deletes,
            int entries) {
        if (entries == 0) {
            return Uni.createFrom().item(0);
        }
        // a count that was never set stays unset (negative reads as unknown), so the next write indexes the feed
        return call(() -> table.deleteAll(deletes))
                .chain(() -> call(() -> table.increment(new Increment(MaterializedKey.count(user))
                        .addColumn(FeedTables.SHOWN_FAMILY, COUNT, -entries))))
                .replaceWith(entries);
    }

    /** Every entry of the user's feed on the primary, copies included. */
    private Uni<List<MaterializedFeed.Stored>> whole(AsyncTable<AdvancedScanResultConsumer> table, long user) {
        return call(() -> table.scanAll(MaterializedFeed.scan(user, null, Integer.MAX_VALUE)))
                .map(MaterializedFeed::stored)
                .invoke(stored -> metrics.materializedRead(FeedMetrics.MaterializedRead.WHOLE, stored.size()));
    }

    private static List<Get> indexGets(long user, List<MaterializedFeed.Stored> written) {
        List<Get> gets = new ArrayList<>(written.size() + 1);
        written.forEach(stored -> gets.add(indexGet(user, stored.entry().pin())));
        gets.add(new Get(MaterializedKey.count(user)).addColumn(FeedTables.SHOWN_FAMILY, COUNT));
        return gets;
    }

    private static Get indexGet(long user, long pin) {
        try {
            return new Get(MaterializedKey.shown(user, pin)).addColumn(FeedTables.SHOWN_FAMILY, POSITION)
                    .readVersions(FeedTables.SHOWN_VERSIONS);
        } catch (java.io.IOException impossible) {
            throw new IllegalStateException(impossible);
        }
    }

    /** The index row's versions, newest first. */
    private static List<Cell> versions(Result row) {
        List<Cell> cells = row.getColumnCells(FeedTables.SHOWN_FAMILY, POSITION);
        return cells == null ? List.of() : cells;
    }

    private static Long count(Result row) {
        byte[] value = row.getValue(FeedTables.SHOWN_FAMILY, COUNT);
        return value == null ? null : Bytes.toLong(value);
    }

    private static Put entryPut(long user, MaterializedFeed.Stored stored) {
        return new Put(new MaterializedKey(user, stored.position()).encode())
                .addColumn(FeedTables.MATERIALIZED_FAMILY, MaterializedFeed.COLUMN, stored.entry().value());
    }

    private static Put indexPut(long user, MaterializedFeed.Stored stored) {
        return new Put(MaterializedKey.shown(user, stored.entry().pin())).addColumn(FeedTables.SHOWN_FAMILY, POSITION,
                MaterializedKey.chunkOf(stored.position()), ByteBuffer.allocate(8).putLong(stored.position()).array());
    }

    private static Delete entryDelete(long user, long position) {
        return new Delete(new MaterializedKey(user, position).encode()).addFamily(FeedTables.MATERIALIZED_FAMILY);
    }

    /** Deletes exactly one version of the pin's index cell (a later put of the same chunk stays masked). */
    private static Delete indexDelete(long user, long pin, long chunkId) {
        return new Delete(MaterializedKey.shown(user, pin)).addColumn(FeedTables.SHOWN_FAMILY, POSITION, chunkId);
    }

    private Uni<AsyncTable<AdvancedScanResultConsumer>> primary() {
        return MaterializedFeed.unavailableAsApi(tables.materialized(HBaseRole.MATERIALIZED_PRIMARY));
    }

    private static <T> Uni<T> call(java.util.function.Supplier<java.util.concurrent.CompletableFuture<T>> call) {
        return MaterializedFeed.unavailableAsApi(HBaseCalls.uni(call));
    }
}
