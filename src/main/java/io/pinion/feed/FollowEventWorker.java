package io.pinion.feed;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.graph.FollowEvent;
import io.pinion.graph.FollowEvents;
import io.pinion.graph.FollowQueries;
import io.pinion.graph.InterestPins;
import io.pinion.id.PinionId;
import io.pinion.pins.PinLists;
import io.pinion.pins.PinView;
import io.pinion.pins.PinViews;
import io.pinion.queue.LeasedJob;
import io.pinion.queue.work.JobHandler;
import io.pinion.queue.work.JobWorker;
import io.pinion.store.ObjectStore;
import io.pinion.store.ObjectTable;
import io.pinion.web.Page;
import io.smallrye.mutiny.Uni;

/**
 * Keeps feeds in line with the follower graph. Following a user or a board backfills its
 * {@code pinion.feed.backfill} most recent pins into the follower's following pool, and following an interest its
 * most recent pins into the interests pool; unfollowing removes that author's or board's pins of the following
 * source, or that interest's pins of the interests source, from the follower's pools and materialized feed.
 */
@ApplicationScoped
@JobHandler(value = FollowEvents.QUEUE, concurrency = 8, partitions = 4, maxAttempts = 1000, leaseMs = 60_000,
        retryDelayMs = 500, retryMaxDelayMs = 30_000)
public class FollowEventWorker implements JobWorker {

    private final FeedJobs jobs;
    private final PinLists pins;
    private final PoolStore pools;
    private final MaterializedFeed materialized;
    private final FeedScorer scorer;
    private final FeedConfig config;
    private final FollowQueries graph;
    private final InterestPins interestPins;
    private final ObjectStore objects;
    private final PinViews views;

    FollowEventWorker(FeedJobs jobs, PinLists pins, PoolStore pools, MaterializedFeed materialized, FeedScorer scorer,
            FeedConfig config, FollowQueries graph, InterestPins interestPins, ObjectStore objects, PinViews views) {
        this.graph = graph;
        this.interestPins = interestPins;
        this.objects = objects;
        this.views = views;
        this.jobs = jobs;
        this.pins = pins;
        this.pools = pools;
        this.materialized = materialized;
        this.scorer = scorer;
        this.config = config;
    }

    @Override
    public Uni<Void> handle(LeasedJob job) {
        FollowEvent event = jobs.read(job.body(), FollowEvent.class);
        long user = PinionId.parse(event.userId()).value();
        return switch (event.type()) {
            case "follow_user" -> backfill(user, pins.userPins(PinionId.parse(event.target()), null, config.backfill()));
            case "follow_board" -> backfill(user, pins.boardPins(PinionId.parse(event.target()), null, config.backfill()));
            case "follow_interest" -> backfillInterest(user, event.target());
            case "unfollow_user" -> {
                long author = PinionId.parse(event.target()).value();
                yield remove(user, entry -> entry.source() == FeedSource.FOLLOWING && entry.author() == author);
            }
            case "unfollow_board" -> {
                long board = PinionId.parse(event.target()).value();
                yield remove(user, entry -> entry.source() == FeedSource.FOLLOWING && entry.board() == board);
            }
            case "unfollow_interest" -> remove(user,
                    entry -> entry.source() == FeedSource.INTERESTS && event.target().equals(entry.interest()));
            default -> Uni.createFrom().voidItem();
        };
    }

    /**
     * Adds the recent pins whose boards the user still follows now: the event may be handled after a later unfollow
     * of the user or of one of their boards, and must not bring those pins back.
     */
    private Uni<Void> backfill(long user, Uni<Page<PinView>> recent) {
        return recent.chain(page -> {
            List<PinView> candidates = page.items().stream()
                    .filter(pin -> PinionId.parse(pin.ownerId()).value() != user).toList();
            if (candidates.isEmpty()) {
                return Uni.createFrom().voidItem();
            }
            Map<PinionId, Long> owners = new LinkedHashMap<>();
            candidates.forEach(pin -> owners.put(PinionId.parse(pin.boardId()), PinionId.parse(pin.ownerId()).value()));
            List<PinionId> boards = List.copyOf(owners.keySet());
            return graph.followsBoards(user, boards, owners).chain(follows -> {
                Set<PinionId> followed = new HashSet<>();
                for (int i = 0; i < boards.size(); i++) {
                    if (follows.get(i)) {
                        followed.add(boards.get(i));
                    }
                }
                long now = System.currentTimeMillis();
                List<PoolEntry> entries = candidates.stream()
                        .filter(pin -> followed.contains(PinionId.parse(pin.boardId())))
                        .map(pin -> PoolEntry.scored(user, FeedSource.FOLLOWING, pin, scorer, now))
                        .toList();
                return pools.add(entries);
            });
        });
    }

    /**
     * The interest's recent pins that still exist (not the user's own) into the interests pool, if the user still
     * follows the interest when the event is handled.
     */
    private Uni<Void> backfillInterest(long user, String interest) {
        return graph.followsInterest(user, interest).chain(follows -> !follows ? Uni.createFrom().voidItem()
                : interestPins.recent(interest, config.backfill())
                        .chain(ids -> objects.getAll(ObjectTable.PINS, PinViews.pinIds(ids)))
                        .chain(found -> {
                            long now = System.currentTimeMillis();
                            return pools.add(views.activeViews(found).stream()
                                    .filter(pin -> PinionId.parse(pin.ownerId()).value() != user)
                                    .map(pin -> PoolEntry.scored(user, FeedSource.INTERESTS, pin, scorer, now)
                                            .withInterest(interest))
                                    .toList());
                        }));
    }

    private Uni<Void> remove(long user, Predicate<FeedEntry> gone) {
        return pools.removeWhere(user, entry -> gone.test(FeedEntry.of(entry)))
                .chain(() -> materialized.removeWhere(user, gone))
                .replaceWithVoid();
    }
}
