package io.pinion.hedge;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;

import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.mutiny.core.Vertx;

/**
 * Makes the service's {@link HedgedReader}s: one per name, with the {@code pinion.hedge.*} settings (or given ones),
 * Vert.x timers and the service's meter registry. Asking again for a name returns the same reader, so its latency
 * window and metrics are shared; asking for it with another error code or other settings is a programming error.
 */
@ApplicationScoped
public class HedgedReaders {

    private final HedgeConfig config;
    private final MeterRegistry registry;
    private final HedgeTimer timer;
    private final Map<String, HedgedReader> readers = new ConcurrentHashMap<>();

    HedgedReaders(HedgeConfig config, MeterRegistry registry, Vertx vertx) {
        this.config = config;
        this.registry = registry;
        this.timer = new VertxHedgeTimer(vertx);
    }

    /** The reader called {@code name} with the configured settings. */
    public HedgedReader named(String name, String unavailableCode) {
        return named(name, unavailableCode, HedgeSettings.of(config));
    }

    /** The reader called {@code name} with its own settings. */
    public HedgedReader named(String name, String unavailableCode, HedgeSettings settings) {
        HedgedReader reader = readers.computeIfAbsent(name,
                n -> new HedgedReader(n, unavailableCode, settings, timer, registry));
        if (!reader.unavailableCode().equals(unavailableCode) || !reader.settings().equals(settings)) {
            throw new IllegalStateException("hedged reader " + name + " already exists with code "
                    + reader.unavailableCode() + " and " + reader.settings());
        }
        return reader;
    }
}
