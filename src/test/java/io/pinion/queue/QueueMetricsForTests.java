package io.pinion.queue;

import io.micrometer.core.instrument.MeterRegistry;

/** Queue metrics on a registry of the test's own, for tests outside this package. */
public final class QueueMetricsForTests {

    private QueueMetricsForTests() {
    }

    public static QueueMetrics on(MeterRegistry registry) {
        return new QueueMetrics(registry);
    }
}
