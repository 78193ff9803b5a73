package io.pinion.feed.fanout;

import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.feed.FeedFunnel;
import io.pinion.feed.PoolEntry;
import io.pinion.feed.store.FeedStates;
import io.pinion.feed.store.MaterializedWriter;
import io.pinion.feed.store.PoolStore;
import io.pinion.queue.LeasedJob;
import io.pinion.queue.work.JobHandler;
import io.pinion.queue.work.JobWorker;
import io.smallrye.mutiny.Uni;

/**
 * Runs {@code feed-persist} jobs: the chunk goes into the materialized feed first; then, side by side, the rows it
 * consumed leave the pools, and the pulled pins it carried enter them before the user's state records the pull and
 * resets the chunk size (a pull recorded before its carried pins were kept would lose them to a crash). Every step
 * is idempotent, so a job that runs twice does no harm. Thirty-two run at once: each spends most of its time waiting
 * for HBase and Redis.
 */
@ApplicationScoped
@JobHandler(value = FeedJobs.PERSIST, concurrency = 32, partitions = 4, maxAttempts = 10_000, leaseMs = 30_000,
        retryDelayMs = 500, retryMaxDelayMs = 10_000)
public class PersistWorker implements JobWorker {

    private final FeedJobs jobs;
    private final MaterializedWriter materialized;
    private final PoolStore pools;
    private final FeedStates states;
    private final PoolCap cap;
    private final FeedFunnel funnel;

    PersistWorker(FeedJobs jobs, MaterializedWriter materialized, PoolStore pools, FeedStates states, PoolCap cap,
            FeedFunnel funnel) {
        this.jobs = jobs;
        this.materialized = materialized;
        this.pools = pools;
        this.states = states;
        this.cap = cap;
        this.funnel = funnel;
    }

    @Override
    public Uni<Void> handle(LeasedJob job) {
        PersistChunk chunk = jobs.read(job.body(), PersistChunk.class);
        List<PoolEntry> carried = chunk.carriedEntries();
        List<PoolEntry> consumed = chunk.consumedEntries();
        Uni<Long> carriedThenPulled = pools.add(carried)
                .invoke(() -> funnel.perRow(FeedFunnel.Stage.CARRIED, carried))
                .chain(() -> states.persisted(chunk.user(), chunk.pulledUntil(), carried.size() - consumed.size()));
        Uni<Void> consumedGone = pools.remove(consumed)
                .invoke(() -> funnel.perRow(FeedFunnel.Stage.CONSUMED, consumed));
        return materialized.write(chunk.user(), chunk.chunkId(), chunk.entries())
                .replaceWithVoid()
                .invoke(() -> funnel.perSource(FeedFunnel.Stage.PERSISTED, chunk.entries()))
                .chain(() -> Uni.combine().all().unis(carriedThenPulled, consumedGone).asTuple())
                .chain(both -> cap.check(chunk.user(), both.getItem1()));
    }
}
