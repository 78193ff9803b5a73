package io.pinion.graph.repair;

import java.nio.charset.StandardCharsets;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.graph.FollowSync;
import io.pinion.graph.GraphRepairs;
import io.pinion.graph.Relationship;
import io.pinion.graph.VirtualShards;
import io.pinion.queue.LeasedJob;
import io.pinion.queue.work.JobHandler;
import io.pinion.queue.work.JobWorker;
import io.smallrye.mutiny.Uni;

/**
 * Runs repair jobs: re-syncs the named relationship from its follower's side. An instance that is still down fails
 * the attempt, which is retried quickly (250 ms doubling up to 2 s) for hours.
 */
@ApplicationScoped
@JobHandler(value = GraphRepairs.QUEUE, concurrency = 8, partitions = 2, maxAttempts = 10_000, leaseMs = 30_000,
        retryDelayMs = 250, retryMaxDelayMs = 2_000)
public class GraphRepairWorker implements JobWorker {

    private final FollowSync sync;
    private final VirtualShards shards;

    GraphRepairWorker(FollowSync sync, VirtualShards shards) {
        this.sync = sync;
        this.shards = shards;
    }

    @Override
    public Uni<Void> handle(LeasedJob job) {
        Relationship relationship = Relationship.parse(new String(job.body(), StandardCharsets.UTF_8), shards);
        return sync.repair(relationship);
    }
}
