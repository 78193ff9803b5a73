package io.pinion.feed.fanout;

import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.feed.FeedConfig;
import io.pinion.feed.FeedFunnel;
import io.pinion.feed.PoolEntry;
import io.pinion.feed.store.FeedStates;
import io.pinion.feed.store.PoolStore;
import io.pinion.queue.LeasedJob;
import io.pinion.queue.work.JobHandler;
import io.pinion.queue.work.JobWorker;
import io.smallrye.mutiny.Uni;

/**
 * Runs {@code feed-trim} jobs: reads the user's pools (at most about a tenth above the cap, since a trim is asked for
 * as soon as they grow past it), deletes the lowest-scored rows beyond {@code pinion.feed.pool-max} across the
 * sources, and records the exact number of rows left.
 */
@ApplicationScoped
@JobHandler(value = FeedJobs.TRIM, concurrency = 4, partitions = 4, maxAttempts = 100, leaseMs = 60_000,
        retryDelayMs = 1000, retryMaxDelayMs = 60_000)
public class TrimWorker implements JobWorker {

    private final FeedJobs jobs;
    private final PoolStore pools;
    private final FeedStates states;
    private final FeedConfig config;
    private final FeedFunnel funnel;

    TrimWorker(FeedJobs jobs, PoolStore pools, FeedStates states, FeedConfig config, FeedFunnel funnel) {
        this.jobs = jobs;
        this.pools = pools;
        this.states = states;
        this.config = config;
        this.funnel = funnel;
    }

    @Override
    public Uni<Void> handle(LeasedJob job) {
        long user = jobs.read(job.body(), PoolTrim.class).user();
        return pools.everything(user).chain(rows -> {
            List<PoolEntry> best = new ArrayList<>(rows);
            best.sort(PoolEntry.BEST_FIRST);
            int keep = Math.min(best.size(), config.poolMax());
            List<PoolEntry> doomed = best.subList(keep, best.size());
            return pools.remove(doomed)
                    .invoke(() -> funnel.rows(FeedFunnel.Stage.TRIMMED, FeedFunnel.Reason.POOL, doomed))
                    .chain(() -> states.poolRows(user, keep));
        });
    }
}
