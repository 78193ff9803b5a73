package io.pinion.queue;

import java.util.List;

/**
 * A queue as stored in the control tables.
 *
 * @param id         numeric id, used in partition table names
 * @param name       unique name used by the API
 * @param config     current settings
 * @param version    incremented on every change
 * @param partitions where each partition lives and who owns it
 */
public record Queue(long id, String name, QueueConfig config, long version, long createdAt, long updatedAt,
        List<QueuePartition> partitions) {

    public Queue {
        partitions = List.copyOf(partitions);
    }

    public QueuePartition partition(int number) {
        return partitions.get(number);
    }
}
