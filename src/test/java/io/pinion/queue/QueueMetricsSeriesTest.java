package io.pinion.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;

import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * A queue's series do not outlive it: a partition's gauges go when this instance stops owning it, and every series of
 * a deleted queue goes at the next registry refresh, while other queues' series stay.
 */
class QueueMetricsSeriesTest {

    @Test
    void aDeletedQueueAndALostPartitionLeaveNoSeries() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        QueueMetrics metrics = new QueueMetrics(registry);
        metrics.enqueued("gone", 3);
        metrics.handoff("gone", 1_000);
        metrics.partitionGauge("depth", "gone", 0, 5);
        metrics.enqueued("kept", 1);
        metrics.partitionGauge("depth", "kept", 0, 7);
        metrics.partitionGauge("buffered", "kept", 1, 2);

        metrics.forgetPartition("kept", 1);
        assertTrue(registry.find("pinion.queue.buffered").tag("queue", "kept").gauges().isEmpty());
        assertEquals(7.0, registry.get("pinion.queue.depth").tag("queue", "kept").gauge().value());

        metrics.keepOnly(Set.of("kept"));
        assertTrue(registry.find("pinion.queue.enqueued").tag("queue", "gone").counters().isEmpty());
        assertTrue(registry.find("pinion.queue.handoff").tag("queue", "gone").timers().isEmpty());
        assertTrue(registry.find("pinion.queue.depth").tag("queue", "gone").gauges().isEmpty());
        assertEquals(1.0, registry.get("pinion.queue.enqueued").tag("queue", "kept").counter().count());

        metrics.enqueued("gone", 2);
        assertEquals(2.0, registry.get("pinion.queue.enqueued").tag("queue", "gone").counter().count(),
                "a queue created again under the same name starts new series");
    }
}
