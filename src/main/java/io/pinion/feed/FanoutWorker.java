package io.pinion.feed;

import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

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
 * Runs {@code feed-fanout} jobs. A pushed pin's page reads up to {@code pinion.feed.fanout-batch} receivers of the
 * board, keeps the active ones ({@link ReceiverStates}), and writes their pool rows itself when it is the only page;
 * a longer fan-out enqueues a {@code feed-pool-insert} job per page and the next page (with a dedupe key, so a page
 * that runs twice does not fork the chain). A deleted pin's pages become {@code feed-purge} jobs, over the board's
 * receivers and over the users whose related pools took the board's pins. Jobs whose push-or-pull decision the
 * saving request could not make decide here ({@link FanoutRoute}); interest jobs only index the pin (interests are
 * pulled).
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
        FanoutPage page = jobs.read(job.body(), FanoutPage.class);
        if (page.source().equals(FeedSource.INTERESTS.label())) {
            return interest(page);
        }
        if (page.source().equals(FeedSource.RELATED.label())) {
            return relatedPurge(page);
        }
        if (page.route() && page.cursor() == null) {
            long board = PinionId.parse(page.board()).value();
            return route.decide(board, PinionId.parse(page.author()).value()).chain(decision -> switch (decision.mode()) {
                case PUSHED -> following(page.pushed());
                case PULLED -> page.purge() ? Uni.createFrom().voidItem() : route.pull(recentPin(page), decision.receivers());
                case NOBODY -> page.purge() ? Uni.createFrom().voidItem() : route.nobody();
            });
        }
        return following(page);
    }

    /** Interests are pulled: the pin enters (or, deleted, leaves) the interest's recent pins; nobody is paged. */
    private Uni<Void> interest(FanoutPage page) {
        if (page.cursor() != null) {
            return Uni.createFrom().voidItem();
        }
        RecentPins.Index index = recentPins.interest(page.interest());
        return page.purge() ? recentPins.remove(index, recentPin(page)) : recentPins.add(index, recentPin(page))
                .invoke(() -> funnel.count(FeedFunnel.Stage.ROUTED, FeedSource.INTERESTS, FeedFunnel.Reason.PULLED, 1));
    }

    private Uni<Void> following(FanoutPage page) {
        int size = Math.min(config.fanoutBatch(), FollowLists.MAX_RECEIVERS_PAGE);
        long author = PinionId.parse(page.author()).value();
        Uni<Page<FollowItem>> receivers = lists.ofBoard(PinionId.parse(page.board()).value(), author, page.cursor(), size);
        return receivers.chain(found -> {
            List<Long> ids = found.items().stream().map(item -> Long.parseLong(item.id())).filter(id -> !DeliveryRules.ownPin(id, author))
                    .toList();
            if (page.purge()) {
                return purgeAndContinue(page, ids, found.nextCursor());
            }
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

    /** A page done: the pin counts as pushed once (its first page), its receivers as paged, the inactive as skipped. */
    private void paged(FanoutPage page, int receivers, int active) {
        if (page.cursor() == null) {
            funnel.count(FeedFunnel.Stage.ROUTED, FeedSource.FOLLOWING, FeedFunnel.Reason.PUSHED, 1);
        }
        funnel.count(FeedFunnel.Stage.PAGED, FeedSource.FOLLOWING, FeedFunnel.Reason.NONE, receivers);
        funnel.count(FeedFunnel.Stage.SKIPPED, FeedSource.FOLLOWING, FeedFunnel.Reason.INACTIVE, receivers - active);
    }

    /** The page's rows, written by this job: the pin is scored for each active receiver and put in one batch. */
    private Uni<Void> insert(FanoutPage page, List<ReceiverStates.Receiver> active) {
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
                .invoke(() -> funnel.count(FeedFunnel.Stage.PUSHED, FeedSource.FOLLOWING, FeedFunnel.Reason.NONE, entries.size()))
                .chain(() -> trims(active));
    }

    private Uni<Void> trims(List<ReceiverStates.Receiver> active) {
        List<Uni<Void>> checks = active.stream().filter(r -> r.counted() && cap.over(r.poolRows()))
                .map(r -> cap.check(r.user(), r.poolRows())).toList();
        return checks.isEmpty() ? Uni.createFrom().voidItem() : Uni.join().all(checks).andFailFast().replaceWithVoid();
    }

    private Uni<Void> purgeAndContinue(FanoutPage page, List<Long> users, String nextCursor) {
        List<Uni<Void>> next = new ArrayList<>();
        if (!users.isEmpty()) {
            next.add(jobs.enqueue(FeedJobs.PURGE, List.of(page.purgeFrom(users.stream().map(Object::toString).toList()))));
        }
        if (nextCursor != null) {
            next.add(next(page, nextCursor));
        }
        return next.isEmpty() ? Uni.createFrom().voidItem() : Uni.join().all(next).andFailFast().replaceWithVoid();
    }

    /** A deleted pin leaves the related pools of the users who took its board's pins, a page at a time. */
    private Uni<Void> relatedPurge(FanoutPage page) {
        long board = PinionId.parse(page.board()).value();
        long author = PinionId.parse(page.author()).value();
        return related.page(board, author, page.cursor(), config.fanoutBatch())
                .chain(found -> purgeAndContinue(page, found.items(), found.nextCursor()));
    }

    private Uni<Void> next(FanoutPage page, String nextCursor) {
        FanoutPage next = page.next(nextCursor);
        return jobs.enqueueOnce(FeedJobs.FANOUT, next, next.dedupeKey());
    }

    private static RecentPin recentPin(FanoutPage page) {
        return new RecentPin(PinionId.parse(page.pin()).value(), PinionId.parse(page.board()).value(),
                PinionId.parse(page.author()).value(), page.created());
    }
}
