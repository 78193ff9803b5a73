package io.pinion.feed.store;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.util.Bytes;

import io.pinion.feed.FeedEntry;
import io.pinion.feed.FeedMetrics;
import io.pinion.hbase.HBaseCalls;
import io.pinion.hedge.HedgedReader;
import io.pinion.hedge.HedgedReaders;
import io.pinion.topology.HBaseRole;
import io.smallrye.mutiny.Uni;

/**
 * Reads of what each user was shown, newest chunk first, on the materialized-feed cluster (written by
 * {@link MaterializedWriter}, trimmed to {@code pinion.feed.materialized-max} entries). Reads are hedged between the
 * primary and the standby, which HBase replication keeps in sync ({@link StandbyReplication}). Every read is
 * proportional to what it returns: a page scans its entries, and "was this pin shown" is one get per pin in the
 * shown index ({@link MaterializedKey}), whatever the size of the feed.
 */
@ApplicationScoped
public class MaterializedFeed {

    public static final byte[] COLUMN = { 'e' };

    private final FeedTables tables;
    private final StandbyReplication replication;
    private final HedgedReader hedge;
    private final FeedMetrics metrics;
    private final FeedWindows windows;

    MaterializedFeed(FeedTables tables, StandbyReplication replication, HedgedReaders readers, FeedMetrics metrics,
            FeedWindows windows) {
        this.windows = windows;
        this.tables = tables;
        this.replication = replication;
        this.metrics = metrics;
        this.hedge = readers.named("materialized_feed", "feed_unavailable");
    }

    /** One stored entry and where it is. */
    public record Stored(long position, FeedEntry entry) {
    }

    /**
     * Up to {@code limit} entries after {@code position} (exclusive; null for the newest), newest first. A next page
     * inside this instance's window of the user's feed is answered from it; a read takes the window's entries beyond
     * the page with it ({@link FeedWindows}).
     */
    public Uni<List<Stored>> page(long user, Long after, int limit) {
        if (after != null) {
            List<Stored> held = windows.page(user, after, limit);
            metrics.windowPage(held != null);
            if (held != null) {
                return Uni.createFrom().item(firstOccurrences(held));
            }
        }
        int read = limit + windows.ahead(limit);
        return hedged(role -> read(role, scan(user, after, read)))
                .invoke(rows -> metrics.materializedRead(FeedMetrics.MaterializedRead.PAGE, rows.size()))
                .invoke(rows -> {
                    if (read > limit) {
                        windows.keep(user, after, rows, rows.size() < read);
                    }
                })
                .map(rows -> firstOccurrences(rows.size() > limit ? rows.subList(0, limit) : rows));
    }

    /**
     * Every entry of the user's feed (at most the configured maximum plus a chunk being written). For the explain
     * call and interest unfollows; a page never reads the whole feed.
     */
    public Uni<List<Stored>> all(long user) {
        return hedged(role -> read(role, scan(user, null, Integer.MAX_VALUE)))
                .invoke(rows -> metrics.materializedRead(FeedMetrics.MaterializedRead.WHOLE, rows.size()))
                .map(MaterializedFeed::firstOccurrences);
    }

    /** Which of the pins the user was shown (is in the materialized feed): one multi-get of their index rows. */
    public Uni<Set<Long>> shown(long user, Collection<Long> pins) {
        if (pins.isEmpty()) {
            return Uni.createFrom().item(Set.of());
        }
        List<Long> asked = List.copyOf(pins);
        metrics.materializedRead(FeedMetrics.MaterializedRead.SHOWN, asked.size());
        return hedged(role -> exists(role, asked.stream()
                .map(pin -> new Get(MaterializedKey.shown(user, pin)).addFamily(FeedTables.SHOWN_FAMILY)).toList()))
                .map(found -> {
                    Set<Long> shown = new HashSet<>();
                    for (int i = 0; i < asked.size(); i++) {
                        if (found.get(i)) {
                            shown.add(asked.get(i));
                        }
                    }
                    return shown;
                });
    }

    /** How many entries the user's feed holds (its count row); null until a write has counted it. */
    public Uni<Long> count(long user) {
        return hedged(role -> unavailableAsApi(tables.materialized(role)
                .chain(table -> HBaseCalls.uni(() -> table.get(new Get(MaterializedKey.count(user))
                        .addColumn(FeedTables.SHOWN_FAMILY, MaterializedWriter.COUNT))))))
                .map(result -> {
                    byte[] value = result.getValue(FeedTables.SHOWN_FAMILY, MaterializedWriter.COUNT);
                    return value == null ? null : Bytes.toLong(value);
                });
    }

    private interface RoleRead<T> {
        Uni<T> on(HBaseRole role);
    }

    /**
     * A read for the user: from the primary, and from the standby when the primary fails or is slow (the
     * {@code materialized_feed} hedged reader); the primary alone when both roles are one cluster. Each side builds
     * its own request (a scan is mutable and consumed by the client).
     */
    private <T> Uni<T> hedged(RoleRead<T> read) {
        if (!replication.separate()) {
            return read.on(HBaseRole.MATERIALIZED_PRIMARY);
        }
        Supplier<Uni<T>> primary = () -> read.on(HBaseRole.MATERIALIZED_PRIMARY);
        Supplier<Uni<T>> standby = () -> read.on(HBaseRole.MATERIALIZED_STANDBY);
        return hedge.read(primary, standby);
    }

    static Scan scan(long user, Long after, int limit) {
        byte[] start = after == null ? MaterializedKey.prefix(user) : new MaterializedKey(user, after - 1).encode();
        Scan scan = new Scan().withStartRow(start, true).withStopRow(stop(user), false)
                .setCaching(Math.min(limit, 1000)).addColumn(FeedTables.MATERIALIZED_FAMILY, COLUMN);
        return limit == Integer.MAX_VALUE ? scan : scan.setLimit(limit);
    }

    /**
     * Keeps the newest occurrence of each pin. Two visits before the first chunk was persisted can hand out the same
     * pins; until the later chunk's write deletes the older copies, reads never show them.
     */
    static List<Stored> firstOccurrences(List<Stored> stored) {
        Set<Long> seen = new HashSet<>();
        return stored.stream().filter(s -> seen.add(s.entry().pin())).toList();
    }

    private Uni<List<Stored>> read(HBaseRole role, Scan scan) {
        return unavailableAsApi(tables.materialized(role)
                .chain(table -> HBaseCalls.uni(() -> table.scanAll(scan))))
                .map(MaterializedFeed::stored);
    }

    private Uni<List<Boolean>> exists(HBaseRole role, List<Get> gets) {
        return unavailableAsApi(tables.materialized(role)
                .chain(table -> HBaseCalls.uni(() -> table.existsAll(gets))));
    }

    static List<Stored> stored(List<Result> results) {
        List<Stored> stored = new ArrayList<>(results.size());
        for (Result result : results) {
            stored.add(new Stored(MaterializedKey.decode(result.getRow()).position(),
                    FeedEntry.of(result.getValue(FeedTables.MATERIALIZED_FAMILY, COLUMN))));
        }
        return stored;
    }

    static byte[] stop(long user) {
        return Bytes.unsignedCopyAndIncrement(MaterializedKey.prefix(user));
    }

    static <T> Uni<T> unavailableAsApi(Uni<T> call) {
        return PoolStore.unavailableAsApi(call, "HBase materialized-feed cluster");
    }
}
