package io.pinion.breaker;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * One {@link Breaker} per backend name, made on first use, with a counter of the calls it turned away
 * ({@code pinion_breaker_rejected_total{backend}}) and its state ({@code pinion_breaker_open{backend}}, 1 open).
 */
@ApplicationScoped
public class Breakers {

    private final BreakerConfig config;
    private final MeterRegistry registry;
    private final Map<String, Breaker> breakers = new ConcurrentHashMap<>();

    Breakers(BreakerConfig config, MeterRegistry registry) {
        this.config = config;
        this.registry = registry;
    }

    public Breaker forBackend(String backend) {
        return breakers.computeIfAbsent(backend, name -> {
            Counter rejected = Counter.builder("pinion.breaker.rejected")
                    .tag("backend", name)
                    .description("Calls failed at once because the backend's breaker was open")
                    .register(registry);
            Breaker breaker =
                    new Breaker(name, config.openFor().toMillis(), config.timeoutsToOpen(), rejected::increment);
            Gauge.builder("pinion.breaker.open", breaker, b -> b.isOpen() ? 1 : 0)
                    .tag("backend", name)
                    .description("1 while the backend's breaker is open")
                    .register(registry);
            return breaker;
        });
    }
}
