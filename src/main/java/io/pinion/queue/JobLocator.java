package io.pinion.queue;

import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.id.PinionId;
import io.smallrye.mutiny.Uni;

/** Finds the queue and partition table of a job id. */
@ApplicationScoped
public class JobLocator {

    /** A job's queue and partition. */
    public record Location(Queue queue, QueuePartition partition) {
    }

    private final JobIds ids;
    private final QueueRegistry registry;

    JobLocator(JobIds ids, QueueRegistry registry) {
        this.ids = ids;
        this.registry = registry;
    }

    /**
     * The location from memory alone (the id's block and its queue already cached), or null when finding it needs a
     * read: lets a batch of ids of known queues be located without a {@link Uni} per id.
     */
    public Location cached(PinionId id) {
        JobIds.Block block = ids.cached(id);
        if (block == null) {
            return null;
        }
        Queue queue = registry.cachedById(block.queueId()).orElse(null);
        if (queue == null || block.partition() >= queue.partitions().size()) {
            return null;
        }
        return new Location(queue, queue.partition(block.partition()));
    }

    /** Empty when the id was never issued or its queue was deleted. */
    public Uni<Optional<Location>> locate(PinionId id) {
        return ids.locate(id).flatMap(block -> {
            if (block.isEmpty()) {
                return Uni.createFrom().item(Optional.<Location>empty());
            }
            return registry.getById(block.get().queueId()).map(queue -> queue
                    .filter(q -> block.get().partition() < q.partitions().size())
                    .map(q -> new Location(q, q.partition(block.get().partition()))));
        });
    }
}
