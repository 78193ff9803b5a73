package io.pinion.feed.fanout;

import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.feed.FeedFunnel;
import io.pinion.feed.FunnelPin;
import io.pinion.feed.store.MaterializedWriter;
import io.pinion.feed.store.PoolStore;
import io.pinion.id.PinionId;
import io.pinion.queue.LeasedJob;
import io.pinion.queue.work.JobHandler;
import io.pinion.queue.work.JobWorker;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/**
 * Removes a deleted pin from the pools and the materialized feed of each user of a page, a few users at a time: the
 * pools through the pin's pool index row, the materialized feed through its shown-index row (one get each).
 * Running twice removes nothing more.
 */
@ApplicationScoped
@JobHandler(value = FeedJobs.PURGE, concurrency = 2, partitions = 4, maxAttempts = 1000, leaseMs = 120_000,
        retryDelayMs = 1000, retryMaxDelayMs = 60_000)
public class PurgeWorker implements JobWorker {

    private static final int USERS_AT_ONCE = 16;

    private final FeedJobs jobs;
    private final PoolStore pools;
    private final MaterializedWriter materialized;
    private final FeedFunnel funnel;

    PurgeWorker(FeedJobs jobs, PoolStore pools, MaterializedWriter materialized, FeedFunnel funnel) {
        this.jobs = jobs;
        this.pools = pools;
        this.materialized = materialized;
        this.funnel = funnel;
    }

    @Override
    public Uni<Void> handle(LeasedJob job) {
        PoolPurge purge = jobs.read(job.body(), PoolPurge.class);
        long pin = PinionId.parse(purge.pin()).value();
        List<Long> users = purge.users().stream().map(id -> PinionId.parse(id).value()).toList();
        return Multi.createFrom().iterable(users)
                .onItem().transformToUni(user -> purge(user, purge, pin)).merge(USERS_AT_ONCE)
                .collect().last().replaceWithVoid();
    }

    private Uni<Integer> purge(long user, PoolPurge purge, long pin) {
        Uni<Integer> fromPools = purge.board() == null || purge.author() == null
                ? Uni.createFrom().item(0)
                : pools.removePin(
                        user,
                        PinionId.parse(purge.author()).value(),
                        PinionId.parse(purge.board()).value(),
                        pin);
        FunnelPin counted = new FunnelPin(pin, purge.author() == null ? 0 : PinionId.parse(purge.author()).value(),
                purge.board() == null ? 0 : PinionId.parse(purge.board()).value());
        return fromPools
                .invoke(rows -> funnel.count(FeedFunnel.Stage.PURGED, null, FeedFunnel.Reason.POOL, counted, rows))
                .chain(() -> materialized.removePin(user, pin))
                .invoke(rows ->
                        funnel.count(FeedFunnel.Stage.PURGED, null, FeedFunnel.Reason.MATERIALIZED, counted, rows));
    }
}
