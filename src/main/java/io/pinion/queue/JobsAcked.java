package io.pinion.queue;

import java.util.Set;

/**
 * Fired after acks land, so the broker owning the partition can hand out the next job of a FIFO queue at once.
 *
 * @param ids    every acked job
 * @param failed the acked jobs that were failures
 */
public record JobsAcked(long queueId, int partition, Set<Long> ids, Set<Long> failed) {
}
