package io.pinion.hedge;

import io.smallrye.mutiny.subscription.Cancellable;

/**
 * The clock and the timer of a {@link HedgedReader}: it measures the primary's latency and schedules the hedge
 * without blocking a thread. The service uses {@link VertxHedgeTimer}; tests use virtual time.
 */
public interface HedgeTimer {

    /** A monotonic time in nanoseconds, as {@link System#nanoTime()}. */
    long nanoTime();

    /**
     * Runs {@code task} once, {@code delayNanos} from now, on a thread that must not be blocked by it (the task only
     * subscribes to a {@code Uni}). Cancelling before it ran means it never runs.
     */
    Cancellable schedule(long delayNanos, Runnable task);
}
