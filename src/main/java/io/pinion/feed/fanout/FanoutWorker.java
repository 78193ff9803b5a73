package io.pinion.feed.fanout;

import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.feed.DeliveryRules;
import io.pinion.feed.FeedConfig;
import io.pinion.feed.FeedFunnel;
import io.pinion.feed.FunnelPin;
import io.pinion.feed.FeedScorer;
import io.pinion.feed.FeedSource;
import io.pinion.feed.PoolEntry;
import io.pinion.feed.PoolKey;
import io.pinion.feed.ScoringInput;
import io.pinion.feed.store.PoolStore;
import io.pinion.feed.store.ReceiverStates;
import io.pinion.feed.store.RelatedReceivers;
import io.pinion.graph.FollowItem;
import io.pinion.graph.FollowLists;
import io.pinion.graph.RecentPin;
import io.pinion.graph.RecentPins;
import io.pinion.id.PinionId;
import io.pinion.paging.Page;
import io.pinion.queue.LeasedJob;
import io.pinion.queue.work.JobHandler;
import io.pinion.queue.work.JobWorker;
import io.smallrye.mutiny.Uni;

/**
 * Runs {@code feed-fanout} jobs, one method per kind of {@link FanoutJob}. A pushed pin's page
 * ({@link FanoutJob.PushPage}) reads up to {@code pinion.feed.fanout-batch} receivers of the board, keeps the active
 * ones ({@link ReceiverStates}), and writes their pool rows itself when it is the only page; a longer fan-out enqueues
 * a {@code feed-pool-insert} job per page and the next page (with a dedupe key, so a page that runs twice does not fork
 * the chain). A deleted pin's pages ({@link FanoutJob.PurgePage}, {@link FanoutJob.RelatedPurgePage}) become
 * {@code feed-purge} jobs, over the board's receivers and over the users whose related pools took the board's pins.
 * A {@link FanoutJob.Route} decides push or pull when the saving request could not ({@link FanoutRoute}); an
 * {@link FanoutJob.InterestIndex} only indexes the pin (interests are pulled).
 */
@ApplicationScoped
@JobHandler(value = FeedJobs.FANOUT, concurrency = 8, partitions = 4, maxAttempts = 1000, leaseMs = 30_000,
        retryDelayMs = 500, retryMaxDelayMs = 30_000)
public class FanoutWorker implements JobWorker {

    private final FeedJobs jobs;
    private final FollowLists lists;
    private final RecentPins recentPins;
    private final RelatedReceivers related;
    private final FanoutRoute route;
    private final ReceiverStates receiverStates;
    private final PoolStore pools;
    private final PoolCap cap;
    private final FeedScorer scorer;
    private final FeedConfig config;
    private final FeedFunnel funnel;

    FanoutWorker(FeedJobs jobs, FollowLists lists, RecentPins recentPins, RelatedReceivers related, FanoutRoute route,
            ReceiverStates receiverStates, PoolStore pools, PoolCap cap, FeedScorer scorer, FeedConfig config,
            FeedFunnel funnel) {
        this.jobs = jobs;
        this.lists = lists;
        this.recentPins = recentPins;
        this.related = related;
        this.route = route;
        this.receiverStates = receiverStates;
        this.pools = pools;
        this.cap = cap;
        this.scorer = scorer;
        this.config = config;
        this.funnel = funnel;
    }

    @Override
    public Uni<Void> handle(LeasedJob job) {
        FanoutJob work = jobs.readFanout(job.body());
        if (work instanceof FanoutJob.Route decide) {
            return route(decide);
        }
        if (work instanceof FanoutJob.PushPage page) {
            return push(page);
        }
        if (work instanceof FanoutJob.PurgePage page) {
            return purge(page);
        }
        if (work instanceof FanoutJob.RelatedPurgePage page) {
            return relatedPurge(page);
        }
        if (work instanceof FanoutJob.InterestIndex index) {
            return interest(index);
        }
        throw new IllegalStateException("unknown fan-out job " + work);
    }

    /** Decides push or pull now (the saving request could not), then does what the decision calls for. */
    private Uni<Void> route(FanoutJob.Route job) {
        long board = PinionId.parse(job.board()).value();
        return route.decide(board, PinionId.parse(job.author()).value()).chain(decision -> switch (decision.mode()) {
            case PUSHED -> job.purge() ? purge(job.firstPurgePage()) : push(job.firstPage());
            case PULLED -> job.purge() ? Uni.createFrom().voidItem()
                    : route.pull(recentPin(job, job.created()), decision.receivers());
            case NOBODY -> job.purge() ? Uni.createFrom().voidItem() : route.nobody(counted(job));
        });
    }

    /** Interests are pulled: the pin enters (or, deleted, leaves) the interest's recent pins; nobody is paged. */
    private Uni<Void> interest(FanoutJob.InterestIndex job) {
        RecentPins.Index index = recentPins.interest(job.interest());
        RecentPin pin = recentPin(job, job.created());
        return job.removed() ? recentPins.remove(index, pin) : recentPins.add(index, pin)
                .invoke(() -> funnel.count(
                        FeedFunnel.Stage.ROUTED, FeedSource.INTERESTS, FeedFunnel.Reason.PULLED, counted(job), 1));
    }

    /** A page of a pushed pin's receivers: pool rows for the active ones. */
    private Uni<Void> push(FanoutJob.PushPage page) {
        long author = PinionId.parse(page.author()).value();
        return receivers(page).chain(found -> {
            List<Long> ids = receiverIds(found, author);
            return receiverStates.active(ids, author, System.currentTimeMillis())
                    .chain(active -> (found.nextCursor() == null ? insert(page, active)
                            : Uni.join().all(
                                    jobs.enqueue(FeedJobs.POOL_INSERT, List.of(page.insert(
                                            active.stream().map(r -> Long.toString(r.user())).toList(),
                                            active.stream().map(ReceiverStates.Receiver::affinity).toList()))),
                                    next(page, found.nextCursor())).andFailFast().replaceWithVoid()
                                    .chain(() -> trims(active)))
                            .invoke(() -> paged(page, ids.size(), active.size())));
        });
    }

    /** A page of a deleted pin's receivers: their pools and feeds are purged of it. */
    private Uni<Void> purge(FanoutJob.PurgePage page) {
        long author = PinionId.parse(page.author()).value();
        return receivers(page).chain(found -> purgeAndContinue(page, receiverIds(found, author), found.nextCursor()));
    }

    /** A page of the board's receivers, at most {@code pinion.feed.fanout-batch}. */
    private Uni<Page<FollowItem>> receivers(FanoutJob.Paged page) {
        int size = Math.min(config.fanoutBatch(), FollowLists.MAX_RECEIVERS_PAGE);
        return lists.ofBoard(PinionId.parse(page.board()).value(), PinionId.parse(page.author()).value(), page.cursor(),
                size);
    }

    private static List<Long> receiverIds(Page<FollowItem> found, long author) {
        return found.items().stream().map(item -> Long.parseLong(item.id()))
                .filter(id -> !DeliveryRules.ownPin(id, author))
                .toList();
    }

    /** A page done: the pin counts as pushed once (its first page), its receivers as paged, the inactive as skipped. */
    private void paged(FanoutJob.PushPage page, int receivers, int active) {
        if (page.cursor() == null) {
            funnel.count(FeedFunnel.Stage.ROUTED, FeedSource.FOLLOWING, FeedFunnel.Reason.PUSHED, counted(page), 1);
        }
        funnel.count(FeedFunnel.Stage.PAGED, FeedSource.FOLLOWING, FeedFunnel.Reason.NONE, counted(page), receivers);
        funnel.count(FeedFunnel.Stage.SKIPPED, FeedSource.FOLLOWING, FeedFunnel.Reason.INACTIVE, counted(page),
                receivers - active);
    }

    /** The page's rows, written by this job: the pin is scored for each active receiver and put in one batch. */
    private Uni<Void> insert(FanoutJob.PushPage page, List<ReceiverStates.Receiver> active) {
        long pin = PinionId.parse(page.pin()).value();
        long author = PinionId.parse(page.author()).value();
        long board = PinionId.parse(page.board()).value();
        List<PoolEntry> entries = new ArrayList<>(active.size());
        for (ReceiverStates.Receiver receiver : active) {
            double score = scorer.score(new ScoringInput(FeedSource.FOLLOWING, page.created(), page.scoredAt(),
                    receiver.affinity()));
            entries.add(new PoolEntry(new PoolKey(receiver.user(), FeedSource.FOLLOWING, score, pin), author, board,
                    page.created()));
        }
        return pools.add(entries)
                .invoke(() -> funnel.count(FeedFunnel.Stage.PUSHED, FeedSource.FOLLOWING, FeedFunnel.Reason.NONE,
                        new FunnelPin(pin, author, board), entries.size()))
                .chain(() -> trims(active));
    }

    private Uni<Void> trims(List<ReceiverStates.Receiver> active) {
        List<Uni<Void>> checks = active.stream().filter(r -> r.counted() && cap.over(r.poolRows()))
                .map(r -> cap.check(r.user(), r.poolRows())).toList();
        return checks.isEmpty() ? Uni.createFrom().voidItem() : Uni.join().all(checks).andFailFast().replaceWithVoid();
    }

    /** A {@code feed-purge} job for the page's users, and the next page. */
    private Uni<Void> purgeAndContinue(FanoutJob.Paged page, List<Long> users, String nextCursor) {
        List<Uni<Void>> next = new ArrayList<>();
        if (!users.isEmpty()) {
            next.add(jobs.enqueue(FeedJobs.PURGE, List.of(new PoolPurge(page.pin(), page.board(), page.author(),
                    users.stream().map(Object::toString).toList()))));
        }
        if (nextCursor != null) {
            next.add(next(page, nextCursor));
        }
        return next.isEmpty() ? Uni.createFrom().voidItem() : Uni.join().all(next).andFailFast().replaceWithVoid();
    }

    /** A deleted pin leaves the related pools of the users who took its board's pins, a page at a time. */
    private Uni<Void> relatedPurge(FanoutJob.RelatedPurgePage page) {
        long board = PinionId.parse(page.board()).value();
        long author = PinionId.parse(page.author()).value();
        return related.page(board, author, page.cursor(), config.fanoutBatch())
                .chain(found -> purgeAndContinue(page, found.items(), found.nextCursor()));
    }

    private Uni<Void> next(FanoutJob.Paged page, String nextCursor) {
        FanoutJob.Paged next = page.next(nextCursor);
        return jobs.enqueueOnce(FeedJobs.FANOUT, next, next.dedupeKey());
    }

    private static FunnelPin counted(FanoutJob job) {
        return new FunnelPin(PinionId.parse(job.pin()).value(), PinionId.parse(job.author()).value(),
                PinionId.parse(job.board()).value());
    }

    private static RecentPin recentPin(FanoutJob job, long created) {
        return new RecentPin(PinionId.parse(job.pin()).value(), PinionId.parse(job.board()).value(),
                PinionId.parse(job.author()).value(), created);
    }
}
