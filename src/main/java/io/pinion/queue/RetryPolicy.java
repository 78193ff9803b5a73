package io.pinion.queue;

import com.fasterxml.jackson.annotation.JsonIgnore;

/**
 * How long a failed job waits before its next attempt: a fixed delay, or a delay that doubles with every attempt
 * up to a cap.
 *
 * @param kind       {@code fixed} or {@code exponential}
 * @param delayMs    the delay after the first failure
 * @param maxDelayMs the cap of an exponential delay
 */
public record RetryPolicy(String kind, long delayMs, long maxDelayMs) {

    public static final String FIXED = "fixed";
    public static final String EXPONENTIAL = "exponential";

    public static RetryPolicy defaults() {
        return new RetryPolicy(EXPONENTIAL, 1_000, 300_000);
    }

    @JsonIgnore
    public boolean exponential() {
        return EXPONENTIAL.equals(kind);
    }

    /** The delay before the attempt after {@code attemptsMade} attempts. */
    public long delayAfter(int attemptsMade) {
        if (!exponential()) {
            return delayMs;
        }
        int doublings = Math.max(0, Math.min(attemptsMade - 1, 40));
        double delay = delayMs * Math.pow(2, doublings);
        return (long) Math.min(delay, maxDelayMs);
    }

    /**
     * The same delay as a SQL expression of the row's {@code attempts_made}, for statements that fail many jobs
     * with different attempt counts at once.
     */
    public String sqlDelayAfterAttempts() {
        if (!exponential()) {
            return Long.toString(delayMs);
        }
        return "LEAST(" + maxDelayMs + ", " + delayMs + " * POW(2, LEAST(GREATEST(attempts_made - 1, 0), 40)))";
    }
}
