package io.pinion.feed.store;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.hadoop.hbase.RegionMetrics;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.AsyncAdmin;
import org.apache.hadoop.hbase.util.Bytes;
import org.jboss.logging.Logger;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.pinion.failure.Outages;
import io.pinion.feed.FeedConfig;
import io.pinion.hbase.HBaseCalls;
import io.pinion.hbase.HBaseCluster;
import io.pinion.hbase.HBaseClusters;
import io.pinion.topology.HBaseRole;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/**
 * Keeps the feed's tables free of deleted rows that scans must skip. Pools are queues: the rows a visit hands out
 * are deleted, and they are the best rows, so the next scan of the same pool starts by stepping over their delete
 * markers, which HBase drops only when it major-compacts the region. Left to HBase's weekly schedule, a user who
 * visits often makes every visit read hundreds of dead rows for the few it returns.
 * <p>
 * Every {@code pinion.feed.compaction.check-interval} this reads each feed region's request counters and
 * flushes and major-compacts (delete markers in the memstore are skipped too, until a flush) the regions whose scans,
 * since the last check, skipped at least
 * {@code pinion.feed.compaction.min-skipped-rows} rows and more rows than they returned
 * ({@code filteredReadRequestCount} against {@code readRequestCount}; the feed's scans use no filter that drops
 * rows, so what they skip is deleted). A region is compacted at most once per interval; a cluster that does not
 * answer is skipped until the next check. Metric: {@code pinion_feed_compactions_total{table}}.
 */
@ApplicationScoped
public class FeedCompactions {

    private static final Logger LOG = Logger.getLogger(FeedCompactions.class);
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(5);

    private final HBaseClusters clusters;
    private final FeedConfig config;
    private final Map<String, long[]> lastCounts = new java.util.concurrent.ConcurrentHashMap<>();
    private final Map<TableName, Counter> compactions = new HashMap<>();

    FeedCompactions(HBaseClusters clusters, FeedConfig config, MeterRegistry registry) {
        this.clusters = clusters;
        this.config = config;
        for (TableName table : List.of(FeedTables.POOLS, FeedTables.MATERIALIZED)) {
            compactions.put(
                    table,
                    Counter.builder("pinion.feed.compactions")
                            .tag("table", table.getNameAsString())
                            .description(
                                    "Feed regions major-compacted because their scans skipped more deleted rows than"
                                            + " they read")
                            .register(registry));
        }
    }

    @Scheduled(every = "${pinion.feed.compaction.check-interval:60s}", delayed = "30s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> check() {
        if (config.compaction().minSkippedRows() <= 0) {
            return Uni.createFrom().voidItem();
        }
        Map<String, HBaseCluster> byName = new HashMap<>();
        Map<String, List<TableName>> tables = new HashMap<>();
        for (HBaseRole role : HBaseRole.values()) {
            HBaseCluster cluster = clusters.forRole(role);
            byName.put(cluster.name(), cluster);
            List<TableName> onIt = tables.computeIfAbsent(cluster.name(), name -> new ArrayList<>());
            TableName table = role == HBaseRole.POOLS ? FeedTables.POOLS : FeedTables.MATERIALIZED;
            if (!onIt.contains(table)) {
                onIt.add(table);
            }
        }
        return Multi.createFrom().iterable(byName.values())
                .onItem().transformToUniAndConcatenate(cluster -> check(cluster, tables.get(cluster.name()))
                        .onFailure().invoke(failure -> LOG.debugf("compaction check of %s skipped: %s", cluster.name(),
                                Outages.describe(failure)))
                        .onFailure().recoverWithNull())
                .collect().last().replaceWithVoid();
    }

    private Uni<Void> check(HBaseCluster cluster, List<TableName> tables) {
        return cluster.connection().chain(connection -> {
            AsyncAdmin admin = connection.getAdmin();
            return call(() -> admin.getRegionServers()).chain(servers -> Multi.createFrom().iterable(servers)
                    .onItem().transformToUniAndConcatenate(server -> Multi.createFrom().iterable(tables)
                            .onItem().transformToUniAndConcatenate(table -> check(admin, cluster, server, table))
                            .collect().last())
                    .collect().last().replaceWithVoid());
        });
    }

    private Uni<Void> check(AsyncAdmin admin, HBaseCluster cluster, ServerName server, TableName table) {
        return call(() -> admin.getRegionMetrics(server, table)).chain(regions -> {
            List<byte[]> doomed = new ArrayList<>();
            for (RegionMetrics region : regions) {
                String key = cluster.name() + "/" + Bytes.toStringBinary(region.getRegionName());
                long read = region.getReadRequestCount();
                long skipped = region.getFilteredReadRequestCount();
                long[] before = lastCounts.put(key, new long[] { read, skipped });
                if (before == null || read < before[0] || skipped < before[1]) {
                    continue;
                }
                if (shouldCompact(read - before[0], skipped - before[1], config.compaction().minSkippedRows())) {
                    doomed.add(region.getRegionName());
                }
            }
            return Multi.createFrom().iterable(doomed)
                    .onItem().transformToUniAndConcatenate(region -> call(() -> admin.flushRegion(region))
                            .chain(() -> call(() -> admin.majorCompactRegion(region)))
                            .invoke(() -> {
                                compactions.get(table).increment();
                                LOG.debugf("major compaction of %s on %s requested", Bytes.toStringBinary(region),
                                        cluster.name());
                            }))
                    .collect().last().replaceWithVoid();
        });
    }

    /** Whether scans of a region, since the last check, skipped enough deleted rows to make compacting it pay. */
    static boolean shouldCompact(long read, long skipped, long minSkipped) {
        return skipped >= minSkipped && skipped > read;
    }

    private static <T> Uni<T> call(java.util.function.Supplier<java.util.concurrent.CompletableFuture<T>> call) {
        return HBaseCalls.uni(call).ifNoItem().after(CALL_TIMEOUT).fail();
    }
}
