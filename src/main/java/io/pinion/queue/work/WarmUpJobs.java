package io.pinion.queue.work;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.queue.LeasedJob;
import io.smallrye.mutiny.Uni;

/**
 * The warm-up's own queue: the start-up warm-up enqueues, leases and acks jobs of it so that the queue's request
 * paths are compiled before the first workers come. A job of it has nothing to do; what the warm-up does not lease and
 * ack itself (a job written to a partition another instance owns, or taken by this handler first) is acked here.
 * Finished jobs are kept for ten minutes only.
 */
@ApplicationScoped
@JobHandler(value = WarmUpJobs.QUEUE, concurrency = 64, partitions = 1, maxAttempts = 3, leaseMs = 10_000,
        retryDelayMs = 1_000, retryMaxDelayMs = 10_000, retentionMs = 600_000)
public class WarmUpJobs implements JobWorker {

    public static final String QUEUE = "queue-warm-up";

    @Override
    public Uni<Void> handle(LeasedJob job) {
        return Uni.createFrom().voidItem();
    }
}
