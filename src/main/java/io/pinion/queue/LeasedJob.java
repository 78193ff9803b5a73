package io.pinion.queue;

import io.pinion.id.PinionId;

/**
 * A job handed to a worker. The worker owns it until {@code leaseExpires}; its ack names {@code attempt} as the
 * lease token, so an ack that arrives after the job was given to someone else is refused.
 *
 * @param partition where the job lives
 * @param attempt   1 for the first run; also the lease token
 */
public record LeasedJob(PinionId id, String queue, QueuePartition partition, int priority, byte[] body,
        int attempt, int attemptsAllowed, long leaseExpires, long createdAt, long runAfter) {
}
