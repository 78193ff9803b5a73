package io.pinion.queue;

import io.pinion.id.PinionId;

/**
 * A job handed to a worker. The worker owns it until {@code leaseExpires}; its ack names {@code lease} (in its lease
 * token), so an ack that arrives after the job was given to someone else is refused.
 *
 * @param partition where the job lives
 * @param attempt   1 for the first run (an admin's retry starts the count again)
 * @param lease     the job's lease sequence: one more for every lease it was ever given, never reset
 */
public record LeasedJob(PinionId id, String queue, QueuePartition partition, int priority, byte[] body,
        int attempt, long lease, int attemptsAllowed, long leaseExpires, long createdAt, long runAfter) {
}
