package io.pinion.feed.store;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.function.Predicate;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.filter.KeyOnlyFilter;

import io.pinion.failure.Outages;
import io.pinion.failure.Unavailable;
import io.pinion.feed.FeedMetrics;
import io.pinion.feed.FeedSource;
import io.pinion.feed.PoolEntry;
import io.pinion.feed.PoolKey;
import io.pinion.hbase.HBaseCalls;
import io.smallrye.mutiny.Uni;

/**
 * The per-user, per-source priority queues on the pools cluster, and their index by author and board
 * ({@link PoolIndexKey}). Insert is a batched put of the rows and their index columns (at most {@link
 * HBaseCalls#MAX_BATCH} mutations a call); "best n" of every source one scan with a limit while the pools are small
 * (one per source when they are not); removal batched deletes. Removing an author's, a board's or a pin's rows reads
 * only the index rows under that prefix, never the user's whole pools.
 */
@ApplicationScoped
public class PoolStore {

    private final FeedTables tables;
    private final FeedMetrics metrics;

    PoolStore(FeedTables tables, FeedMetrics metrics) {
        this.tables = tables;
        this.metrics = metrics;
    }

    public Uni<Void> add(List<PoolEntry> entries) {
        if (entries.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        List<Put> puts = new ArrayList<>(entries.size() * 2);
        for (PoolEntry entry : entries) {
            puts.add(new Put(entry.key().encode()).addColumn(FeedTables.POOL_FAMILY, PoolEntry.COLUMN, entry.value()));
            puts.add(new Put(PoolIndexKey.of(entry).encode())
                    .addColumn(FeedTables.POOL_FAMILY, qualifier(entry.key().source()), indexValue(entry)));
        }
        return unavailableAsApi(tables.pools().chain(table -> HBaseCalls.inBatches(puts, table::putAll)))
                .invoke(() -> metrics.inserted(entries.size()));
    }

    /** The best {@code n} entries of one pool, best first. */
    public Uni<List<PoolEntry>> top(long user, FeedSource source, int n) {
        byte[] prefix = PoolKey.prefix(user, source);
        Scan scan = new Scan().setStartStopRowForPrefixScan(prefix).setLimit(n).setCaching(Math.min(n, 1000))
                .addColumn(FeedTables.POOL_FAMILY, PoolEntry.COLUMN);
        return unavailableAsApi(tables.pools().chain(table -> HBaseCalls.uni(() -> table.scanAll(scan))))
                .map(PoolStore::entries);
    }

    /**
     * The best {@code n} entries of each pool, best first per source. A user whose pools are believed small
     * ({@code expectedRows}, the feed state's approximate count, at most {@value #ONE_SCAN_SOURCES} × {@code n}) is
     * read with one scan over all three pools; a source that scan may have cut short (it stopped at its limit within
     * or before that source) is read again on its own. Larger pools get one scan per source. Either way each source's
     * answer is exactly its best {@code n}.
     */
    public Uni<Map<FeedSource, List<PoolEntry>>> best(long user, int n, long expectedRows) {
        if (expectedRows > (long) ONE_SCAN_SOURCES * n) {
            return perSource(user, n, List.of(FeedSource.values()), new EnumMap<>(FeedSource.class));
        }
        int limit = (ONE_SCAN_SOURCES + 1) * n;
        Scan scan = new Scan().withStartRow(poolsStart(user), true).withStopRow(poolsStop(user), false).setLimit(limit)
                .setCaching(Math.min(limit, 1000)).addColumn(FeedTables.POOL_FAMILY, PoolEntry.COLUMN);
        return unavailableAsApi(tables.pools().chain(table -> HBaseCalls.uni(() -> table.scanAll(scan))))
                .map(PoolStore::entries)
                .chain(rows -> {
                    Map<FeedSource, List<PoolEntry>> bySource = new EnumMap<>(FeedSource.class);
                    for (FeedSource source : FeedSource.values()) {
                        bySource.put(source, new ArrayList<>());
                    }
                    rows.forEach(row -> bySource.get(row.key().source()).add(row));
                    List<FeedSource> unsure = new ArrayList<>();
                    if (rows.size() >= limit) {
                        int cutAt = rows.get(rows.size() - 1).key().source().code();
                        for (FeedSource source : FeedSource.values()) {
                            if (source.code() >= cutAt && bySource.get(source).size() < n) {
                                unsure.add(source);
                            }
                        }
                    }
                    bySource.replaceAll((source, entries) -> entries.subList(0, Math.min(n, entries.size())));
                    return perSource(user, n, unsure, bySource);
                });
    }

    /** How many sources' worth of rows one scan over a user's pools is worth reading. */
    static final int ONE_SCAN_SOURCES = 3;

    /** The best {@code n} of each of the sources, one scan each, side by side, into {@code into}. */
    private Uni<Map<FeedSource, List<PoolEntry>>> perSource(long user, int n, List<FeedSource> sources,
            Map<FeedSource, List<PoolEntry>> into) {
        if (sources.isEmpty()) {
            return Uni.createFrom().item(into);
        }
        List<Uni<List<PoolEntry>>> scans = sources.stream().map(source -> top(user, source, n)).toList();
        return Uni.join().all(scans).andFailFast().map(found -> {
            for (int i = 0; i < sources.size(); i++) {
                into.put(sources.get(i), found.get(i));
            }
            return into;
        });
    }

    private static byte[] poolsStart(long user) {
        byte[] start = PoolKey.prefix(user, FeedSource.FOLLOWING);
        start[start.length - 1] = 0;
        return start;
    }

    /** Where the user's index rows begin: no pool scan goes past it. */
    private static byte[] poolsStop(long user) {
        byte[] stop = poolsStart(user);
        stop[stop.length - 1] = PoolIndexKey.MARKER;
        return stop;
    }

    /** Deletes the rows and their index columns. */
    public Uni<Void> remove(List<PoolEntry> entries) {
        if (entries.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        List<Delete> deletes = new ArrayList<>(entries.size() * 2);
        for (PoolEntry entry : entries) {
            deletes.add(new Delete(entry.key().encode()));
            deletes.add(new Delete(PoolIndexKey.of(entry).encode())
                    .addColumns(FeedTables.POOL_FAMILY, qualifier(entry.key().source())));
        }
        return unavailableAsApi(tables.pools().chain(table -> HBaseCalls.inBatches(deletes, table::deleteAll)))
                .invoke(() -> metrics.removed(entries.size()));
    }

    /** Removes the user's rows of the author's pins (every board) that match; how many. Reads the index only. */
    public Uni<Integer> removeByAuthor(long user, long author, Predicate<PoolEntry> matches) {
        return removeIndexed(PoolIndexKey.authorPrefix(user, author), matches);
    }

    /** Removes the user's rows of the pins on the board that match; how many. Reads the index only. */
    public Uni<Integer> removeByBoard(long user, long author, long board, Predicate<PoolEntry> matches) {
        return removeIndexed(PoolIndexKey.boardPrefix(user, author, board), matches);
    }

    /** Removes the pin from every pool of the user; how many rows. One get of its index row. */
    public Uni<Integer> removePin(long user, long author, long board, long pin) {
        return pooled(user, author, board, pin).chain(found -> remove(found).replaceWith(found.size()));
    }

    /** The pin's rows in the user's pools, one per source it is pooled under; none when it is not pooled. One get. */
    public Uni<List<PoolEntry>> pooled(long user, long author, long board, long pin) {
        Get get = new Get(new PoolIndexKey(user, author, board, pin).encode()).addFamily(FeedTables.POOL_FAMILY);
        return unavailableAsApi(tables.pools().chain(table -> HBaseCalls.uni(() -> table.get(get))))
                .map(result -> result.isEmpty() ? List.of() : indexed(result));
    }

    /**
     * Where a row stands in its pool.
     *
     * @param above   rows ranked above it (better scores first; equal scores by pin id)
     * @param present the row itself is there
     * @param capped  the count stopped at its bound: at least {@code above} rows rank above it, and whether the row
     *                is there is not known
     */
    public record Standing(int above, boolean present, boolean capped) {
    }

    /**
     * How many rows of its pool rank above {@code key}, counted up to {@code max}, and whether the row is there: one
     * scan of row keys from the pool's start to the key, at most {@code max + 1} rows.
     */
    public Uni<Standing> standing(PoolKey key, int max) {
        byte[] row = key.encode();
        Scan scan = new Scan().withStartRow(PoolKey.prefix(key.user(), key.source()), true).withStopRow(row, true)
                .setLimit(max + 1).setCaching(Math.min(max + 1, 1000))
                .setFilter(new FilterList(new FirstKeyOnlyFilter(), new KeyOnlyFilter()));
        return unavailableAsApi(tables.pools().chain(table -> HBaseCalls.uni(() -> table.scanAll(scan))))
                .map(rows -> {
                    boolean present = !rows.isEmpty()
                            && Arrays.equals(rows.get(rows.size() - 1).getRow(), row);
                    return new Standing(
                            present ? rows.size() - 1 : rows.size(), present, !present && rows.size() > max);
                });
    }

    /** Which of the pins (given by their index keys) are in any of the user's pools. One multi-get. */
    public Uni<Set<Long>> holding(List<PoolIndexKey> keys) {
        if (keys.isEmpty()) {
            return Uni.createFrom().item(Set.of());
        }
        List<Get> gets = keys.stream().map(key -> new Get(key.encode()).addFamily(FeedTables.POOL_FAMILY)).toList();
        return unavailableAsApi(tables.pools().chain(table -> HBaseCalls.uni(() -> table.existsAll(gets))))
                .map(exists -> {
                    Set<Long> held = new HashSet<>();
                    for (int i = 0; i < keys.size(); i++) {
                        if (exists.get(i)) {
                            held.add(keys.get(i).pin());
                        }
                    }
                    return held;
                });
    }

    /**
     * Removes the pins (given by their index keys) from every pool of the user that holds them: one multi-get of
     * their index rows, then the deletes of what they name. The rows removed.
     */
    public Uni<List<PoolEntry>> removePins(List<PoolIndexKey> keys) {
        if (keys.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        List<Get> gets = keys.stream().map(key -> new Get(key.encode()).addFamily(FeedTables.POOL_FAMILY)).toList();
        return unavailableAsApi(tables.pools().chain(table -> HBaseCalls.uni(() -> table.getAll(gets))))
                .chain(results -> {
                    List<PoolEntry> held = new ArrayList<>();
                    results.stream()
                            .filter(result -> !result.isEmpty())
                            .forEach(result -> held.addAll(indexed(result)));
                    return remove(held).replaceWith(held);
                });
    }

    /** Every row of one pool, best first (a pool holds at most about {@code pinion.feed.pool-max} rows). */
    public Uni<List<PoolEntry>> all(long user, FeedSource source) {
        Scan scan = new Scan().setStartStopRowForPrefixScan(PoolKey.prefix(user, source)).setCaching(1000)
                .addColumn(FeedTables.POOL_FAMILY, PoolEntry.COLUMN);
        return unavailableAsApi(tables.pools().chain(table -> HBaseCalls.uni(() -> table.scanAll(scan))))
                .map(PoolStore::entries);
    }

    /** Every row of every pool of the user (not the index), in key order. */
    public Uni<List<PoolEntry>> everything(long user) {
        Scan scan = new Scan().withStartRow(poolsStart(user), true).withStopRow(poolsStop(user), false).setCaching(1000)
                .addColumn(FeedTables.POOL_FAMILY, PoolEntry.COLUMN);
        return unavailableAsApi(tables.pools().chain(table -> HBaseCalls.uni(() -> table.scanAll(scan))))
                .map(PoolStore::entries);
    }

    private Uni<Integer> removeIndexed(byte[] prefix, Predicate<PoolEntry> matches) {
        Scan scan = new Scan().setStartStopRowForPrefixScan(prefix).addFamily(FeedTables.POOL_FAMILY).setCaching(1000);
        return unavailableAsApi(tables.pools().chain(table -> HBaseCalls.uni(() -> table.scanAll(scan))))
                .invoke(rows -> metrics.indexRowsRead(rows.size()))
                .chain(rows -> {
                    List<PoolEntry> doomed = new ArrayList<>();
                    rows.forEach(row -> indexed(row).stream().filter(matches).forEach(doomed::add));
                    return remove(doomed).replaceWith(doomed.size());
                });
    }

    /** The pool entries an index row points at, one per source column. */
    private static List<PoolEntry> indexed(Result row) {
        PoolIndexKey key = PoolIndexKey.decode(row.getRow());
        NavigableMap<byte[], byte[]> columns = row.getFamilyMap(FeedTables.POOL_FAMILY);
        List<PoolEntry> entries = new ArrayList<>(columns.size());
        for (Map.Entry<byte[], byte[]> column : columns.entrySet()) {
            FeedSource source = FeedSource.ofCode(column.getKey()[0]).orElse(null);
            if (source == null) {
                continue;
            }
            ByteBuffer value = ByteBuffer.wrap(column.getValue());
            double score = value.getDouble();
            long created = value.getLong();
            entries.add(new PoolEntry(
                    new PoolKey(key.user(), source, score, key.pin()),
                    key.author(),
                    key.board(),
                    created,
                    PoolEntry.rest(value)));
        }
        return entries;
    }

    private static byte[] qualifier(FeedSource source) {
        return new byte[] { (byte) source.code() };
    }

    /** score, creation time, then the interest's UTF-8 bytes if there is one. */
    private static byte[] indexValue(PoolEntry entry) {
        byte[] name = entry.interest() == null ? new byte[0] : entry.interest().getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(16 + name.length)
                .putDouble(entry.key().score())
                .putLong(entry.pinCreated())
                .put(name)
                .array();
    }

    private static List<PoolEntry> entries(List<Result> results) {
        List<PoolEntry> entries = new ArrayList<>(results.size());
        for (Result result : results) {
            entries.add(PoolEntry.of(result.getRow(), result.getValue(FeedTables.POOL_FAMILY, PoolEntry.COLUMN)));
        }
        return entries;
    }

    private static <T> Uni<T> unavailableAsApi(Uni<T> call) {
        return unavailableAsApi(call, "HBase pools cluster");
    }

    /** A cluster that does not answer becomes a 503 naming it. */
    static <T> Uni<T> unavailableAsApi(Uni<T> call, String backend) {
        return call.onFailure(Outages::isUnavailable)
                .transform(failure -> failure instanceof Unavailable ? failure
                        : new Unavailable(backend, failure));
    }
}
