package io.pinion.feed.store;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.inject.Inject;

import org.apache.hadoop.hbase.RegionMetrics;
import org.apache.hadoop.hbase.client.AsyncAdmin;
import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.MeterRegistry;
import io.pinion.feed.Eventually;
import io.pinion.feed.FeedSource;
import io.pinion.feed.PoolEntry;
import io.pinion.feed.PoolKey;
import io.pinion.hbase.HBaseCalls;
import io.pinion.hbase.HBaseClusters;
import io.pinion.id.ObjectType;
import io.pinion.id.PinionId;
import io.pinion.stack.StackTest;
import io.pinion.topology.HBaseRole;
import io.quarkus.test.junit.QuarkusTest;

/**
 * A pool whose best rows were handed out (deleted) makes every later scan step over their delete markers until the
 * region is compacted; the compaction check compacts such a region, and the same scan then skips almost nothing.
 */
@QuarkusTest
@StackTest
class FeedCompactionsTest {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final AtomicLong USERS = new AtomicLong(66_000_000_000L + (System.nanoTime() & 0xfffffffL));

    @Inject
    PoolStore pools;
    @Inject
    FeedCompactions compactions;
    @Inject
    HBaseClusters clusters;
    @Inject
    MeterRegistry registry;

    @Test
    void aRegionWhoseScansSkipManyDeletedRowsIsCompacted() throws Exception {
        long user = PinionId.of(1, ObjectType.USER, USERS.incrementAndGet()).value();
        List<PoolEntry> rows = new ArrayList<>();
        for (int i = 0; i < 3_000; i++) {
            rows.add(new PoolEntry(new PoolKey(user, FeedSource.FOLLOWING, 10_000 - i, 1_000 + i), 7, 8, 1L, null));
        }
        pools.add(rows).await().atMost(WAIT);
        pools.remove(rows.subList(0, 2_990)).await().atMost(WAIT);
        compactions.check().await().atMost(WAIT);

        long before = skipped(user);
        for (int i = 0; i < 10; i++) {
            assertTrue(pools.top(user, FeedSource.FOLLOWING, 5).await().atMost(WAIT).size() == 5);
        }
        long perScan = (skipped(user) - before) / 10;
        assertTrue(perScan >= 2_500, "each scan stepped over (most of) the 2,990 handed-out rows: " + perScan);

        double compacted = compacted();
        compactions.check().await().atMost(WAIT);
        assertTrue(compacted() > compacted, "the region was compacted");
        Eventually.within(Eventually.JOBS_MS, () -> {
            long from = skipped(user);
            pools.top(user, FeedSource.FOLLOWING, 5).await().atMost(WAIT);
            return skipped(user) - from < 100;
        });
        assertFalse(FeedCompactions.shouldCompact(1_000, 900, 100), "fewer rows skipped than read");
        assertFalse(FeedCompactions.shouldCompact(10, 90, 100), "too few skipped");
    }

    private double compacted() {
        return registry.find("pinion.feed.compactions").tag("table", FeedTables.POOLS.getNameAsString())
                .counter().count();
    }

    /** Rows skipped by scans of the region that holds the user's pools. */
    private long skipped(long user) {
        byte[] row = PoolKey.prefix(user, FeedSource.FOLLOWING);
        return clusters.forRole(HBaseRole.POOLS)
                .connection()
                .chain(connection -> {
                    AsyncAdmin admin = connection.getAdmin();
                    return HBaseCalls.uni(() -> connection
                                    .getRegionLocator(FeedTables.POOLS)
                                    .getRegionLocation(row))
                            .chain(location -> HBaseCalls.uni(
                                            () -> admin.getRegionMetrics(location.getServerName(), FeedTables.POOLS))
                                    .map(regions -> regions.stream()
                                            .filter(r -> java.util.Arrays.equals(
                                                    r.getRegionName(),
                                                    location.getRegion().getRegionName()))
                                            .mapToLong(RegionMetrics::getFilteredReadRequestCount)
                                            .sum()));
                })
                .await()
                .atMost(WAIT);
    }
}
