package io.pinion.queue;

/**
 * Fired after jobs due now were written to a partition through this instance, so the broker owning the partition
 * here looks for them at once instead of at its next poll.
 */
public record JobsEnqueued(long queueId, int partition) {
}
