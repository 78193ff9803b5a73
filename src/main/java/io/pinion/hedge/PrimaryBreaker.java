package io.pinion.hedge;

/**
 * Stops making every read wait out the hedge delay while the primary is down or hung. Once the primary has lost
 * {@code threshold} reads in a row (the standby answered, or both failed) and won none for {@code minOutageNanos}
 * (so a pause of a few hundred milliseconds under load, which many concurrent reads lose at once, does not count),
 * reads go to the standby alone; one read per {@code probeIntervalNanos} still races the primary as usual, and the
 * first one the primary wins closes the breaker. Lock-free; a race between two reads at worst sends one extra probe.
 */
final class PrimaryBreaker {

    private final int threshold;
    private final long probeIntervalNanos;
    private final long minOutageNanos;
    private volatile int losses;
    private volatile long lastWin;
    private volatile boolean open;
    private volatile long lastProbe;

    PrimaryBreaker(int threshold, long probeIntervalNanos, long minOutageNanos, long now) {
        this.threshold = threshold;
        this.probeIntervalNanos = probeIntervalNanos;
        this.minOutageNanos = minOutageNanos;
        this.lastWin = now;
    }

    /** Whether this read should skip the primary; false for the periodic probe while open. */
    boolean standbyOnly(long now) {
        if (!open) {
            return false;
        }
        if (now - lastProbe >= probeIntervalNanos) {
            lastProbe = now;
            return false;
        }
        return true;
    }

    /** The outcome of a read that raced the primary. */
    void record(HedgeOutcome outcome, long now) {
        switch (outcome) {
            case PRIMARY, HEDGED_PRIMARY_WON -> {
                losses = 0;
                lastWin = now;
                open = false;
            }
            case HEDGED_STANDBY_WON, FAILOVER, BOTH_FAILED -> {
                if (++losses >= threshold && now - lastWin >= minOutageNanos && !open) {
                    lastProbe = now;
                    open = true;
                }
            }
            default -> {
                // standby-only reads say nothing about the primary
            }
        }
    }

    boolean isOpen() {
        return open;
    }
}
