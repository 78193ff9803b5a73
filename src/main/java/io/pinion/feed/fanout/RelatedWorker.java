package io.pinion.feed.fanout;

import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.feed.FeedFunnel;
import io.pinion.feed.FeedScorer;
import io.pinion.feed.FeedSource;
import io.pinion.feed.PoolEntry;
import io.pinion.feed.store.Affinity;
import io.pinion.feed.store.PoolStore;
import io.pinion.feed.store.RelatedReceivers;
import io.pinion.id.PinionId;
import io.pinion.pins.PinLists;
import io.pinion.pins.PinService;
import io.pinion.pins.PinView;
import io.pinion.queue.LeasedJob;
import io.pinion.queue.work.JobHandler;
import io.pinion.queue.work.JobWorker;
import io.smallrye.mutiny.Uni;

/**
 * The related source: after a like or save of pin P, the user's affinity for P's author grows by one, the user is
 * recorded among the related receivers of P's board (so a deleted pin of the board can be purged from their pools),
 * and the most recent pins of P's board (P and the user's own pins left out) go into the user's related pool.
 */
@ApplicationScoped
@JobHandler(value = FeedJobs.RELATED, concurrency = 8, partitions = 4, maxAttempts = 100, leaseMs = 30_000,
        retryDelayMs = 500, retryMaxDelayMs = 30_000)
public class RelatedWorker implements JobWorker {

    static final int RELATED_PER_ACTION = 5;

    private final FeedJobs jobs;
    private final PinService pins;
    private final PinLists lists;
    private final PoolStore pools;
    private final FeedScorer scorer;
    private final Affinity affinity;
    private final RelatedReceivers receivers;
    private final PoolCap cap;
    private final FeedFunnel funnel;

    RelatedWorker(FeedJobs jobs, PinService pins, PinLists lists, PoolStore pools, FeedScorer scorer, Affinity affinity,
            RelatedReceivers receivers, PoolCap cap, FeedFunnel funnel) {
        this.jobs = jobs;
        this.pins = pins;
        this.lists = lists;
        this.pools = pools;
        this.scorer = scorer;
        this.affinity = affinity;
        this.receivers = receivers;
        this.cap = cap;
        this.funnel = funnel;
    }

    @Override
    public Uni<Void> handle(LeasedJob job) {
        RelatedPins related = jobs.read(job.body(), RelatedPins.class);
        long user = PinionId.parse(related.user()).value();
        return pins.get(PinionId.parse(related.pin())).chain(pin -> pin == null ? Uni.createFrom().voidItem()
                : affinity.interacted(user, PinionId.parse(pin.ownerId()).value())
                        .chain(() -> receivers.add(PinionId.parse(pin.boardId()).value(),
                                PinionId.parse(pin.ownerId()).value(), user, System.currentTimeMillis()))
                        .chain(() -> lists.boardPins(PinionId.parse(pin.boardId()), null, RELATED_PER_ACTION + 1))
                        .map(page -> entries(user, related.pin(), page.items()))
                        .call(pools::add)
                        .invoke(added -> funnel.perRow(FeedFunnel.Stage.POOLED, FeedFunnel.Reason.RELATED, added))
                        .chain(added -> cap.changed(user, added.size())));
    }

    private List<PoolEntry> entries(long user, String liked, List<PinView> candidates) {
        List<PoolEntry> entries = new ArrayList<>();
        long now = System.currentTimeMillis();
        for (PinView pin : candidates) {
            boolean own = PinionId.parse(pin.ownerId()).value() == user;
            if (!pin.id().equals(liked) && !own && entries.size() < RELATED_PER_ACTION) {
                entries.add(PoolEntry.scored(user, FeedSource.RELATED, pin, scorer, now));
            }
        }
        return entries;
    }
}
