package io.pinion.queue.broker.pacing;

/**
 * A broker's share of a queue's dequeue rate (the rate times the share of the queue's partitions it owns), spent
 * on whichever of its partitions have jobs: tokens accrue at {@code rate} per second up to a small burst
 * (a fifth of a second's worth, at least one), so the rate holds over any window longer than a second.
 */
public final class TokenBucket {

    private double rate = -1;
    private double burst;
    private double tokens;
    private long lastNanos = System.nanoTime();

    /** Sets the rate in jobs per second; negative is unlimited, zero is paused. */
    public synchronized void setRate(double perSecond) {
        if (perSecond == rate) {
            return;
        }
        refill();
        rate = perSecond;
        burst = perSecond < 0 ? Double.MAX_VALUE : Math.max(1, perSecond * 0.2);
        tokens = Math.min(tokens, burst);
    }

    /** Takes up to {@code wanted} tokens; returns how many were granted. */
    public synchronized int take(int wanted) {
        if (rate < 0) {
            return wanted;
        }
        refill();
        int granted = (int) Math.min(wanted, Math.floor(tokens));
        tokens -= granted;
        return granted;
    }

    /** Gives back tokens that were taken but not used. */
    public synchronized void giveBack(int unused) {
        if (rate >= 0 && unused > 0) {
            tokens = Math.min(burst, tokens + unused);
        }
    }

    public synchronized boolean paused() {
        return rate == 0;
    }

    private void refill() {
        long now = System.nanoTime();
        if (rate > 0) {
            tokens = Math.min(burst, tokens + rate * (now - lastNanos) / 1e9);
        }
        lastNanos = now;
    }
}
