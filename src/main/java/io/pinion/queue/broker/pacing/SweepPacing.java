package io.pinion.queue.broker.pacing;

import java.time.Duration;

/**
 * When an owned partition sweeps its expired leases ({@code LeaseSweep}), as a state of its own. A sweep is
 * due every sweep interval; a partition whose sweep found nothing expired and which leased nothing since the sweep
 * before doubles the interval each time, up to {@link #BACKOFF_FACTOR} intervals, and leasing jobs or finding some
 * expired brings it back to one interval. A partition starts as if it had just leased (swept at once, at the base
 * interval). Read and written from the partition's event loop and from the threads that lease, hence volatile fields.
 */
public final class SweepPacing {

    /** An idle partition is swept at most this many sweep intervals apart. */
    static final long BACKOFF_FACTOR = 20;

    private final long baseMs;
    private volatile boolean leasedSinceSweep = true;
    private volatile long nextSweepAt;
    /** The interval to the next sweep; 0 before the first. */
    private volatile long intervalMs;

    public SweepPacing(Duration interval) {
        this.baseMs = interval.toMillis();
    }

    /** Whether a sweep is due now. */
    public boolean due(long now) {
        return now >= nextSweepAt;
    }

    /** Jobs were leased (prefetched, or written leased): some may expire, so sweeps come at the base interval. */
    public void leased() {
        leasedSinceSweep = true;
    }

    /** A sweep starts: whether jobs were leased since the sweep before (and, from now on, not). */
    public boolean start() {
        boolean leased = leasedSinceSweep;
        leasedSinceSweep = false;
        return leased;
    }

    /** The sweep started at {@code now} found {@code expired} leases; {@code leased} is what {@link #start} said. */
    public void swept(long now, int expired, boolean leased) {
        intervalMs =
                expired == 0 && !leased ? Math.min(Math.max(baseMs, intervalMs * 2), baseMs * BACKOFF_FACTOR) : baseMs;
        nextSweepAt = now + intervalMs;
    }

    /** The interval to the next sweep. */
    public long intervalMs() {
        return intervalMs;
    }
}
