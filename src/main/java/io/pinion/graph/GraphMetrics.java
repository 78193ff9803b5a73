package io.pinion.graph;

import jakarta.enterprise.context.ApplicationScoped;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Prometheus counters of the graph's consistency machinery: follow changes by kind, followed sides that could not be
 * written at once (repairs scheduled), and relationships the pending sweep had to repair.
 */
@ApplicationScoped
public class GraphMetrics {

    private final MeterRegistry registry;
    private final Counter repairsScheduled;
    private final Counter sweepRepaired;

    GraphMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.repairsScheduled = Counter.builder("pinion.graph.repairs.scheduled")
                .description("Relationships whose second side could not be written at once; a repair job was enqueued")
                .register(registry);
        this.sweepRepaired = Counter.builder("pinion.graph.sweep.repaired")
                .description("Unsettled relationships repaired by the pending sweep")
                .register(registry);
    }

    void changed(String type) {
        registry.counter("pinion.graph.changes", "type", type).increment();
    }

    void repairScheduled() {
        repairsScheduled.increment();
    }

    public void sweepRepaired(int count) {
        sweepRepaired.increment(count);
    }

    public void failoverResynced(int count) {
        registry.counter("pinion.graph.failover.resynced").increment(count);
    }
}
