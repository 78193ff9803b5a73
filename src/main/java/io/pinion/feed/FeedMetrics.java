package io.pinion.feed;

import jakarta.enterprise.context.ApplicationScoped;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Prometheus counters of the feed's pools: rows written (fan-out, backfills, related pins) and rows removed (handed
 * out, unfollows, purges). Their rates are the fan-out throughput the benchmark reports.
 */
@ApplicationScoped
public class FeedMetrics {

    private final Counter poolInserts;
    private final Counter poolRemovals;

    FeedMetrics(MeterRegistry registry) {
        this.poolInserts = Counter.builder("pinion_feed_pool_inserts_total")
                .description("Pool rows written").register(registry);
        this.poolRemovals = Counter.builder("pinion_feed_pool_removals_total")
                .description("Pool rows deleted").register(registry);
    }

    void inserted(int rows) {
        poolInserts.increment(rows);
    }

    void removed(int rows) {
        poolRemovals.increment(rows);
    }
}
