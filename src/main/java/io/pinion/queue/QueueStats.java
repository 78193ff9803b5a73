package io.pinion.queue;

import java.util.List;
import java.util.Map;

/**
 * Counts of a queue's jobs by state, and how late the oldest due job is.
 *
 * @param counts          jobs per state over the partitions that answered
 * @param oldestDueAgeMs  how long the oldest PENDING job has been due (0 when none is due)
 * @param partitions      the same per partition, with its shard and owner; {@code available} is false for a
 *                        partition whose MySQL host did not answer
 */
public record QueueStats(
        String queue, Map<JobState, Long> counts, long oldestDueAgeMs, List<PartitionStats> partitions) {

    public record PartitionStats(int partition, int shard, String owner, boolean available, Map<JobState, Long> counts,
            long oldestDueAgeMs) {
    }
}
