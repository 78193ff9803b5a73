package io.pinion.queue.api;

import java.time.Instant;
import java.util.List;

import io.pinion.queue.Queue;
import io.pinion.queue.QueueConfig;

/** A queue with its settings and where its partitions live. */
public record QueueView(String name, long version, QueueConfig config, Instant createdAt, Instant updatedAt,
        List<PartitionView> partitions) {

    public record PartitionView(int partition, int shard, String owner) {
    }

    /**
     * The queue with each partition's owner from {@code owners} ({@code queueId/partition} to broker; null when none).
     */
    static QueueView of(Queue queue, java.util.Map<String, String> owners) {
        return new QueueView(queue.name(), queue.version(), queue.config(), Instant.ofEpochMilli(queue.createdAt()),
                Instant.ofEpochMilli(queue.updatedAt()), queue.partitions().stream()
                        .map(partition -> new PartitionView(partition.partition(), partition.shard(),
                                owners.get(partition.key())))
                        .toList());
    }
}
