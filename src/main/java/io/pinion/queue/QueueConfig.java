package io.pinion.queue;

/**
 * A queue's settings, stored as JSON with the queue and applied by every instance within a refresh interval.
 *
 * @param partitions      partition tables, each on one shard database and owned by one broker
 * @param rateLimit       most jobs handed out per second across the whole cluster; 0 pauses; null is unlimited
 * @param maxAttempts     attempts before a job is FAILED
 * @param retry           backoff between attempts
 * @param leaseMs         how long a dequeued job belongs to its worker before it is given to another
 * @param defaultPriority priority of jobs enqueued without one (1 is served first, 3 last)
 * @param fifo            one partition, jobs handed out one at a time in enqueue order
 * @param retentionMs     how long finished (SUCCEEDED or FAILED) jobs are kept
 * @param maxBodyBytes    largest body accepted
 */
public record QueueConfig(int partitions, Double rateLimit, int maxAttempts, RetryPolicy retry, long leaseMs,
        int defaultPriority, boolean fifo, long retentionMs, int maxBodyBytes) {

    public static final int MIN_PRIORITY = 1;
    public static final int MAX_PRIORITY = 3;

    public static final long DEFAULT_RETENTION_MS = 7L * 24 * 3600 * 1000;

    /** The settings of a queue created without any. */
    public static QueueConfig defaults(int maxBodyBytes) {
        return new QueueConfig(
                4, null, 5, RetryPolicy.defaults(), 60_000, 2, false, DEFAULT_RETENTION_MS, maxBodyBytes);
    }

    /** Whether handing out is paused (rate limit 0). */
    public boolean paused() {
        return rateLimit != null && rateLimit <= 0;
    }
}
