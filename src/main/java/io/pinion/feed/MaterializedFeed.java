package io.pinion.feed;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;

import io.pinion.hbase.HBaseCalls;
import io.pinion.hedge.HedgedReader;
import io.pinion.hedge.HedgedReaders;
import io.pinion.topology.HBaseRole;
import io.smallrye.mutiny.Uni;

/**
 * What each user was shown, newest chunk first, on the materialized-feed cluster; trimmed to
 * {@code pinion.feed.materialized-max} entries. Writes go to the primary cluster, which HBase replication copies
 * to the standby ({@link StandbyReplication}); feed reads are hedged between the two.
 */
@ApplicationScoped
public class MaterializedFeed {

    static final byte[] COLUMN = { 'e' };

    private final FeedTables tables;
    private final FeedConfig config;
    private final StandbyReplication replication;
    private final HedgedReader hedge;

    MaterializedFeed(FeedTables tables, FeedConfig config, StandbyReplication replication, HedgedReaders readers) {
        this.tables = tables;
        this.config = config;
        this.replication = replication;
        this.hedge = readers.named("materialized_feed", "feed_unavailable");
    }

    /** One stored entry and where it is. */
    public record Stored(long position, FeedEntry entry) {
    }

    /** Up to {@code limit} entries after {@code position} (exclusive; null for the newest), newest first. */
    public Uni<List<Stored>> page(long user, Long after, int limit) {
        return hedged(() -> scan(user, after, limit)).map(MaterializedFeed::firstOccurrences);
    }

    /** Every entry of the user's feed (at most the configured maximum plus one unpersisted trim). */
    public Uni<List<Stored>> all(long user) {
        return hedged(() -> scan(user, null, maxRows())).map(MaterializedFeed::firstOccurrences);
    }

    /**
     * A read for the user: from the primary, and from the standby when the primary fails or is slow (the
     * {@code materialized_feed} hedged reader); the primary alone when both roles are one cluster.
     */
    private Uni<List<Stored>> hedged(Supplier<Scan> scan) {
        if (!replication.separate()) {
            return read(HBaseRole.MATERIALIZED_PRIMARY, scan.get());
        }
        // a scan is mutable and consumed by the client: each side gets its own
        return hedge.read(() -> read(HBaseRole.MATERIALIZED_PRIMARY, scan.get()),
                () -> read(HBaseRole.MATERIALIZED_STANDBY, scan.get()));
    }

    /** Every stored row on the primary, copies of a pin included: what writes start from. */
    private Uni<List<Stored>> raw(long user) {
        return read(HBaseRole.MATERIALIZED_PRIMARY, scan(user, null, maxRows()));
    }

    private int maxRows() {
        return config.materializedMax() + MaterializedKey.MAX_CHUNK;
    }

    private static Scan scan(long user, Long after, int limit) {
        byte[] start = after == null ? MaterializedKey.prefix(user) : new MaterializedKey(user, after - 1).encode();
        return new Scan().withStartRow(start, true).withStopRow(stop(user), false).setLimit(limit)
                .setCaching(Math.min(limit, 1000)).addColumn(FeedTables.MATERIALIZED_FAMILY, COLUMN);
    }

    /**
     * Keeps the newest occurrence of each pin. Two visits before the first chunk was persisted can hand out the same
     * pins; until the later chunk's write deletes the older copies, reads never show them.
     */
    private static List<Stored> firstOccurrences(List<Stored> stored) {
        Set<Long> seen = new HashSet<>();
        return stored.stream().filter(s -> seen.add(s.entry().pin())).toList();
    }

    /**
     * Writes a chunk in its order, then reads the feed back and deletes older copies of pins held twice and
     * everything beyond the maximum. One put, one scan, one delete; idempotent per chunk id. Because every write
     * scans after its own put, of two chunks written at the same moment the later scan sees both, so copies never
     * outlive the writes that made them.
     */
    public Uni<Void> write(long user, long chunkId, List<FeedEntry> chunk) {
        List<Stored> written = new ArrayList<>(chunk.size());
        for (int i = 0; i < chunk.size(); i++) {
            written.add(new Stored(MaterializedKey.position(chunkId, i), chunk.get(i)));
        }
        return put(user, written).chain(() -> raw(user)).chain(stored -> delete(user, surplus(stored)))
                .replaceWithVoid();
    }

    /** Removes the entries that match, e.g. an unfollowed author's pins; how many. */
    public Uni<Integer> removeWhere(long user, Predicate<FeedEntry> matches) {
        return raw(user).chain(stored -> delete(user, stored.stream().filter(s -> matches.test(s.entry())).toList()));
    }

    /** Of a feed newest first: older copies of pins held twice, then everything beyond the maximum. */
    private List<Stored> surplus(List<Stored> feed) {
        List<Stored> kept = firstOccurrences(feed);
        Set<Long> keptPositions = new HashSet<>();
        kept.subList(0, Math.min(kept.size(), config.materializedMax())).forEach(s -> keptPositions.add(s.position()));
        return feed.stream().filter(s -> !keptPositions.contains(s.position())).toList();
    }

    private Uni<Void> put(long user, List<Stored> entries) {
        if (entries.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        List<Put> puts = entries.stream().map(s -> new Put(new MaterializedKey(user, s.position()).encode())
                .addColumn(FeedTables.MATERIALIZED_FAMILY, COLUMN, s.entry().value())).toList();
        return unavailableAsApi(tables.materialized(HBaseRole.MATERIALIZED_PRIMARY)
                .chain(table -> HBaseCalls.uni(() -> table.putAll(puts))));
    }

    private Uni<Integer> delete(long user, List<Stored> doomed) {
        if (doomed.isEmpty()) {
            return Uni.createFrom().item(0);
        }
        List<Delete> deletes = doomed.stream().map(s -> new Delete(new MaterializedKey(user, s.position()).encode())).toList();
        return unavailableAsApi(tables.materialized(HBaseRole.MATERIALIZED_PRIMARY)
                .chain(table -> HBaseCalls.uni(() -> table.deleteAll(deletes))))
                .replaceWith(doomed.size());
    }

    private Uni<List<Stored>> read(HBaseRole role, Scan scan) {
        return unavailableAsApi(tables.materialized(role)
                .chain(table -> HBaseCalls.uni(() -> table.scanAll(scan))))
                .map(results -> {
                    List<Stored> stored = new ArrayList<>(results.size());
                    for (Result result : results) {
                        stored.add(new Stored(MaterializedKey.decode(result.getRow()).position(),
                                FeedEntry.of(result.getValue(FeedTables.MATERIALIZED_FAMILY, COLUMN))));
                    }
                    return stored;
                });
    }

    private static byte[] stop(long user) {
        byte[] prefix = MaterializedKey.prefix(user);
        return org.apache.hadoop.hbase.util.Bytes.unsignedCopyAndIncrement(prefix);
    }

    private static <T> Uni<T> unavailableAsApi(Uni<T> call) {
        return PoolStore.unavailableAsApi(call, "HBase materialized-feed cluster");
    }
}
