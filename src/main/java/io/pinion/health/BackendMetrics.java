package io.pinion.health;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.context.ApplicationScoped;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/**
 * Probes every backend on a schedule and publishes {@code pinion_backend_up} (1 or 0) and
 * {@code pinion_backend_probe_seconds} per backend, for alerting without scraping the health endpoint.
 */
@ApplicationScoped
public class BackendMetrics {

    private final BackendProbes probes;
    private final MeterRegistry registry;
    private final Map<String, AtomicInteger> up = new ConcurrentHashMap<>();

    BackendMetrics(BackendProbes probes, MeterRegistry registry) {
        this.probes = probes;
        this.registry = registry;
    }

    @Scheduled(every = "${pinion.health.probe-interval:10s}", delay = 1, delayUnit = TimeUnit.SECONDS,
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> probeAll() {
        return Multi.createFrom().iterable(probes.all())
                .onItem().transformToUniAndMerge(probes::run)
                .invoke(this::record)
                .collect().last()
                .replaceWithVoid();
    }

    private void record(ProbeResult result) {
        String name = result.probe().name();
        String kind = result.probe().kind();
        up.computeIfAbsent(name, n -> {
            AtomicInteger value = new AtomicInteger();
            Gauge.builder("pinion.backend.up", value, AtomicInteger::get)
                    .description("1 when the backend answered its last probe in time, else 0")
                    .tags("backend", n, "kind", kind)
                    .register(registry);
            return value;
        }).set(result.up() ? 1 : 0);
        Timer.builder("pinion.backend.probe")
                .description("Round-trip time of backend probes")
                .tags("backend", name, "kind", kind, "outcome", result.up() ? "up" : "down")
                .register(registry)
                .record(result.latencyMs(), TimeUnit.MILLISECONDS);
    }
}
