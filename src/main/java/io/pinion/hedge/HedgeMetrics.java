package io.pinion.hedge;

import java.util.EnumMap;
import java.util.Map;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Prometheus meters of one hedged reader, tagged with its {@code name}: {@code pinion_hedge_reads_total} by
 * {@code outcome} ({@link HedgeOutcome#tag()}), {@code pinion_hedge_warmup_reads_total}, and the gauge
 * {@code pinion_hedge_delay_seconds} of the hedge delay in force.
 */
final class HedgeMetrics {

    private final Map<HedgeOutcome, Counter> reads = new EnumMap<>(HedgeOutcome.class);
    private final Counter warmups;

    HedgeMetrics(MeterRegistry registry, String name, HedgeDelay delay) {
        for (HedgeOutcome outcome : HedgeOutcome.values()) {
            reads.put(outcome, Counter.builder("pinion.hedge.reads")
                    .description("Hedged reads by which side answered")
                    .tag("name", name)
                    .tag("outcome", outcome.tag())
                    .register(registry));
        }
        this.warmups = Counter.builder("pinion.hedge.warmup.reads")
                .description("Reads also sent to the standby, answer dropped, to keep it warm")
                .tag("name", name)
                .register(registry);
        Gauge.builder("pinion.hedge.delay.seconds", delay, d -> d.nanos() / 1e9)
                .description("Hedge delay in force: the primary's latency quantile within floor and ceiling")
                .tag("name", name)
                .strongReference(true)
                .register(registry);
    }

    void read(HedgeOutcome outcome) {
        reads.get(outcome).increment();
    }

    void warmup() {
        warmups.increment();
    }
}
