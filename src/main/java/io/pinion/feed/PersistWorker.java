package io.pinion.feed;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.queue.LeasedJob;
import io.pinion.queue.work.JobHandler;
import io.pinion.queue.work.JobWorker;
import io.smallrye.mutiny.Uni;

/**
 * Runs {@code feed-persist} jobs: the chunk goes into the materialized feed first, then leaves the pools, then the
 * user's next chunk size is reset. Every step is idempotent, so a job that runs twice does no harm.
 */
@ApplicationScoped
@JobHandler(value = FeedJobs.PERSIST, concurrency = 8, partitions = 4, maxAttempts = 10_000, leaseMs = 30_000,
        retryDelayMs = 500, retryMaxDelayMs = 10_000)
public class PersistWorker implements JobWorker {

    private final FeedJobs jobs;
    private final MaterializedFeed materialized;
    private final PoolStore pools;
    private final ChunkSizes sizes;

    PersistWorker(FeedJobs jobs, MaterializedFeed materialized, PoolStore pools, ChunkSizes sizes) {
        this.jobs = jobs;
        this.materialized = materialized;
        this.pools = pools;
        this.sizes = sizes;
    }

    @Override
    public Uni<Void> handle(LeasedJob job) {
        PersistChunk chunk = jobs.read(job.body(), PersistChunk.class);
        return materialized.write(chunk.user(), chunk.chunkId(), chunk.entries())
                .chain(() -> pools.remove(chunk.consumed().stream().map(c -> c.key(chunk.user())).toList()))
                .chain(() -> sizes.reset(chunk.user()));
    }
}
