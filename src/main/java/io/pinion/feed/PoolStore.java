package io.pinion.feed;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;

import io.pinion.hbase.HBaseCalls;
import io.pinion.web.BackendFailures;
import io.pinion.web.BackendUnavailableException;
import io.smallrye.mutiny.Uni;

/**
 * The per-user, per-source priority queues on the pools cluster. Insert is one batched put, "best n" one prefix
 * scan with a limit, removal one batched delete.
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
        List<Put> puts = new ArrayList<>(entries.size());
        for (PoolEntry entry : entries) {
            puts.add(new Put(entry.key().encode()).addColumn(FeedTables.POOL_FAMILY, PoolEntry.COLUMN, entry.value()));
        }
        return unavailableAsApi(tables.pools().chain(table -> HBaseCalls.uni(() -> table.putAll(puts))))
                .invoke(() -> metrics.inserted(puts.size()));
    }

    /** The best {@code n} entries of one pool, best first. */
    public Uni<List<PoolEntry>> top(long user, FeedSource source, int n) {
        byte[] prefix = PoolKey.prefix(user, source);
        Scan scan = new Scan().setStartStopRowForPrefixScan(prefix).setLimit(n).setCaching(Math.min(n, 1000))
                .addColumn(FeedTables.POOL_FAMILY, PoolEntry.COLUMN);
        return unavailableAsApi(tables.pools().chain(table -> HBaseCalls.uni(() -> table.scanAll(scan))))
                .map(PoolStore::entries);
    }

    public Uni<Void> remove(List<PoolKey> keys) {
        if (keys.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        List<Delete> deletes = keys.stream().map(key -> new Delete(key.encode())).toList();
        return unavailableAsApi(tables.pools().chain(table -> HBaseCalls.uni(() -> table.deleteAll(deletes))))
                .invoke(() -> metrics.removed(deletes.size()));
    }

    /** Removes every entry of the user's pools that matches, e.g. the pins of an unfollowed author; how many. */
    public Uni<Integer> removeWhere(long user, Predicate<PoolEntry> matches) {
        byte[] first = PoolKey.prefix(user, FeedSource.FOLLOWING);
        byte[] userPrefix = Arrays.copyOf(first, PoolKey.PREFIX_LENGTH - 1);
        Scan scan = new Scan().setStartStopRowForPrefixScan(userPrefix).addColumn(FeedTables.POOL_FAMILY, PoolEntry.COLUMN);
        return unavailableAsApi(tables.pools().chain(table -> HBaseCalls.uni(() -> table.scanAll(scan))))
                .map(PoolStore::entries)
                .chain(entries -> {
                    List<PoolKey> doomed = entries.stream().filter(matches).map(PoolEntry::key).toList();
                    return remove(doomed).replaceWith(doomed.size());
                });
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
        return call.onFailure(BackendFailures::isUnavailable)
                .transform(failure -> failure instanceof BackendUnavailableException ? failure
                        : new BackendUnavailableException(backend, failure));
    }
}
