package io.pinion.hedge;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The hedge delay in force: the configured quantile of the primary's recent latencies ({@link LatencyWindow}),
 * bounded by the floor and the ceiling; the initial delay until {@code minSamples} reads were measured. The
 * quantile is recomputed every {@value #REFRESH} samples (a pass over 352 buckets), so reads only load a volatile.
 */
final class HedgeDelay {

    static final int REFRESH = 64;

    private final HedgeSettings settings;
    private final LatencyWindow window;
    private final AtomicLong recorded = new AtomicLong();
    private final long floorNanos;
    private final long ceilingNanos;
    private volatile long delayNanos;

    HedgeDelay(HedgeSettings settings) {
        this.settings = settings;
        this.window = new LatencyWindow(settings.window());
        this.floorNanos = settings.floor().toNanos();
        this.ceilingNanos = settings.ceiling().toNanos();
        this.delayNanos = floorNanos == ceilingNanos ? floorNanos : settings.initialDelay().toNanos();
    }

    /** The delay after which a read still unanswered by the primary is also sent to the standby. */
    long nanos() {
        return delayNanos;
    }

    /**
     * Counts a primary read that answered after {@code nanos}, or was cancelled after {@code nanos} because the
     * standby answered first: such a read was at least that slow, and leaving it out would pull the quantile, and
     * then the delay, down with every hedge.
     */
    void record(long nanos) {
        window.record(TimeUnit.NANOSECONDS.toMicros(Math.max(0, nanos)));
        if (recorded.incrementAndGet() % REFRESH == 0) {
            refresh();
        }
    }

    /** Recomputes the delay from the window now. */
    void refresh() {
        if (floorNanos == ceilingNanos) {
            delayNanos = floorNanos;
            return;
        }
        if (window.size() < settings.minSamples()) {
            return;
        }
        long quantile = (long) (window.quantile(settings.quantile()) * 1_000);
        delayNanos = Math.min(ceilingNanos, Math.max(floorNanos, quantile));
    }
}
