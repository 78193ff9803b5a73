package io.pinion.failure;

import java.util.concurrent.atomic.AtomicLongArray;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.StartupEvent;
import io.vertx.core.Context;
import io.vertx.core.Vertx;

/**
 * How far behind the service's event loops run: a timer on each loop asks to fire every {@value #PERIOD_MS} ms and
 * measures how late it fires. A loop with more work than it can do fires late; a busy service is told apart from a
 * slow backend by it (a budget or a timeout overrun while the loops lag is the service's own).
 * Metric: {@code pinion_event_loop_lag_seconds} (the largest over the loops).
 */
@ApplicationScoped
public class EventLoopLag {

    private static final long PERIOD_MS = 50;

    private final Vertx vertx;
    private final long busyMs;
    private final int loops;
    /** Per loop: the lateness of its last timer (ms) and when its next one is due (ns). */
    private final AtomicLongArray lastLagMs;
    private final AtomicLongArray nextDueNs;

    EventLoopLag(Vertx vertx, MeterRegistry registry,
            @ConfigProperty(name = "pinion.overload.event-loop-lag", defaultValue = "25") long busyMs) {
        this.vertx = vertx;
        this.busyMs = busyMs;
        this.loops = 2 * Runtime.getRuntime().availableProcessors();
        this.lastLagMs = new AtomicLongArray(loops);
        this.nextDueNs = new AtomicLongArray(loops);
        Gauge.builder("pinion.event.loop.lag.seconds", this, lag -> lag.lagMs() / 1000.0)
                .description("How late the event loops run their timers (the largest over the loops)")
                .register(registry);
    }

    void start(@Observes StartupEvent event) {
        long now = System.nanoTime();
        for (int i = 0; i < loops; i++) {
            int loop = i;
            nextDueNs.set(loop, now + PERIOD_MS * 1_000_000);
            // from a thread outside Vert.x each new context is bound to the next event loop
            Context context = vertx.getOrCreateContext();
            context.runOnContext(ignored -> tick(loop));
        }
    }

    private void tick(int loop) {
        nextDueNs.set(loop, System.nanoTime() + PERIOD_MS * 1_000_000);
        vertx.setTimer(PERIOD_MS, id -> {
            long late = (System.nanoTime() - nextDueNs.get(loop)) / 1_000_000;
            lastLagMs.set(loop, Math.max(0, late));
            tick(loop);
        });
    }

    /** The largest lateness over the loops, the one still waiting to fire included (ms). */
    public long lagMs() {
        long now = System.nanoTime();
        long worst = 0;
        for (int i = 0; i < loops; i++) {
            worst = Math.max(worst, Math.max(lastLagMs.get(i), (now - nextDueNs.get(i)) / 1_000_000));
        }
        return worst;
    }

    /** Whether the loops run later than {@code pinion.overload.event-loop-lag} (25 ms): the service is busy. */
    public boolean busy() {
        return lagMs() > busyMs;
    }
}
