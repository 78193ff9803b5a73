package io.pinion.queue;

import io.pinion.id.PinionId;

/**
 * A job row as stored in its partition table.
 *
 * @param attemptsMade    leases handed out so far (the current attempt number while RUNNING)
 * @param attemptsAllowed attempts before the job is FAILED
 * @param runAfter        earliest time it may be handed out (epoch ms)
 * @param leaseOwner      the broker that leased it, while RUNNING
 * @param leaseExpires    when the current lease ends (epoch ms), while RUNNING
 * @param status          custom status written by workers with their acks (at most 5,000 characters)
 */
public record Job(PinionId id, String queue, int partition, JobState state, int priority, byte[] body,
        int attemptsMade, int attemptsAllowed, long runAfter, String leaseOwner, Long leaseExpires,
        long createdAt, long updatedAt, String status, String dedupeKey) {
}
