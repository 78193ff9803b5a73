package io.pinion.feed;

import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.graph.FollowItem;
import io.pinion.graph.FollowLists;
import io.pinion.graph.InterestPins;
import io.pinion.id.PinionId;
import io.pinion.queue.LeasedJob;
import io.pinion.queue.work.JobHandler;
import io.pinion.queue.work.JobWorker;
import io.pinion.web.Page;
import io.smallrye.mutiny.Uni;

/**
 * Reads one page of a new pin's receivers from the follower graph and enqueues its pool-insert job (for a deleted
 * pin, its purge job) together with the job for the next page. A page that runs twice enqueues the same inserts
 * twice, which write the same rows. The first page of an interest also adds the pin to (or, deleted, removes it
 * from) the interest's recent pins, which backfill the interest's new followers.
 */
@ApplicationScoped
@JobHandler(value = FeedJobs.FANOUT, concurrency = 8, partitions = 4, maxAttempts = 1000, leaseMs = 30_000,
        retryDelayMs = 500, retryMaxDelayMs = 30_000)
public class FanoutWorker implements JobWorker {

    private final FeedJobs jobs;
    private final FollowLists lists;
    private final InterestPins interestPins;
    private final FeedConfig config;

    FanoutWorker(FeedJobs jobs, FollowLists lists, InterestPins interestPins, FeedConfig config) {
        this.jobs = jobs;
        this.lists = lists;
        this.interestPins = interestPins;
        this.config = config;
    }

    @Override
    public Uni<Void> handle(LeasedJob job) {
        FanoutPage page = jobs.read(job.body(), FanoutPage.class);
        int size = Math.min(config.fanoutBatch(), FollowLists.MAX_RECEIVERS_PAGE);
        boolean interests = page.source().equals(FeedSource.INTERESTS.label());
        Uni<Page<FollowItem>> receivers = interests
                ? indexed(page).chain(() -> lists.ofInterest(page.interest(), page.cursor(), size))
                : lists.ofBoard(PinionId.parse(page.board()).value(), PinionId.parse(page.author()).value(), page.cursor(), size);
        return receivers.chain(found -> {
            List<String> ids = found.items().stream().map(FollowItem::id).filter(id -> !id.equals(page.author())).toList();
            List<Uni<Void>> next = new ArrayList<>();
            if (!ids.isEmpty()) {
                next.add(page.purge() ? jobs.enqueue(FeedJobs.PURGE, List.of(page.purgeFrom(ids)))
                        : jobs.enqueue(FeedJobs.POOL_INSERT, List.of(page.insert(ids))));
            }
            if (found.nextCursor() != null) {
                next.add(jobs.enqueue(FeedJobs.FANOUT, List.of(page.next(found.nextCursor()))));
            }
            return next.isEmpty() ? Uni.createFrom().voidItem() : Uni.join().all(next).andFailFast().replaceWithVoid();
        });
    }

    /** On the first page of an interest: the interest's recent pins gain the new pin or lose the deleted one. */
    private Uni<Void> indexed(FanoutPage page) {
        if (page.cursor() != null) {
            return Uni.createFrom().voidItem();
        }
        long pin = PinionId.parse(page.pin()).value();
        return page.purge() ? interestPins.remove(page.interest(), pin)
                : interestPins.add(page.interest(), pin, page.created());
    }
}
