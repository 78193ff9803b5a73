package io.pinion.feed.fanout;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.feed.DeliveryRules;
import io.pinion.feed.FeedConfig;
import io.pinion.feed.FeedEntry;
import io.pinion.feed.FeedFunnel;
import io.pinion.feed.FunnelPin;
import io.pinion.feed.FeedScorer;
import io.pinion.feed.FeedSource;
import io.pinion.feed.PoolEntry;
import io.pinion.feed.store.MaterializedFeed;
import io.pinion.feed.store.MaterializedWriter;
import io.pinion.feed.store.PoolStore;
import io.pinion.graph.FollowEvent;
import io.pinion.graph.FollowEvents;
import io.pinion.graph.FollowQueries;
import io.pinion.graph.RecentPin;
import io.pinion.graph.RecentPins;
import io.pinion.id.PinionId;
import io.pinion.paging.Page;
import io.pinion.pins.PinLists;
import io.pinion.pins.PinView;
import io.pinion.pins.PinViews;
import io.pinion.queue.LeasedJob;
import io.pinion.queue.work.JobHandler;
import io.pinion.queue.work.JobWorker;
import io.pinion.store.ObjectStore;
import io.pinion.store.ObjectTable;
import io.smallrye.mutiny.Uni;

/**
 * Keeps feeds in line with the follower graph. Following a user or a board backfills its
 * {@code pinion.feed.backfill} most recent pins into the follower's following pool, and following an interest its
 * most recent pins into the interests pool. Unfollowing a user or a board removes that author's or board's pins of
 * the following source from the follower's pools (found through the pools' index, without reading the pools) and
 * materialized feed; unfollowing an interest removes the pins that came through it, except those tagged with another
 * interest the user still follows.
 */
@ApplicationScoped
@JobHandler(value = FollowEvents.QUEUE, concurrency = 8, partitions = 4, maxAttempts = 1000, leaseMs = 60_000,
        retryDelayMs = 500, retryMaxDelayMs = 30_000)
public class FollowEventWorker implements JobWorker {

    private final FeedJobs jobs;
    private final PinLists pins;
    private final PoolStore pools;
    private final PoolCap cap;
    private final MaterializedFeed materialized;
    private final MaterializedWriter materializedWriter;
    private final FeedScorer scorer;
    private final FeedConfig config;
    private final FollowQueries graph;
    private final RecentPins recentPins;
    private final ObjectStore objects;
    private final PinViews views;
    private final FeedFunnel funnel;

    FollowEventWorker(
            FeedJobs jobs,
            PinLists pins,
            PoolStore pools,
            PoolCap cap,
            MaterializedFeed materialized,
            MaterializedWriter materializedWriter,
            FeedScorer scorer,
            FeedConfig config,
            FollowQueries graph,
            RecentPins recentPins,
            ObjectStore objects,
            PinViews views,
            FeedFunnel funnel) {
        this.jobs = jobs;
        this.pins = pins;
        this.pools = pools;
        this.cap = cap;
        this.materialized = materialized;
        this.materializedWriter = materializedWriter;
        this.scorer = scorer;
        this.config = config;
        this.graph = graph;
        this.recentPins = recentPins;
        this.objects = objects;
        this.views = views;
        this.funnel = funnel;
    }

    @Override
    public Uni<Void> handle(LeasedJob job) {
        FollowEvent event = jobs.read(job.body(), FollowEvent.class);
        long user = PinionId.parse(event.userId()).value();
        return switch (event.type()) {
            case "follow_user" ->
                backfill(user, pins.userPins(PinionId.parse(event.target()), null, config.backfill()));
            case "follow_board" ->
                backfill(user, pins.boardPins(PinionId.parse(event.target()), null, config.backfill()));
            case "follow_interest" -> backfillInterest(user, event.target());
            case "unfollow_user" -> {
                long author = PinionId.parse(event.target()).value();
                yield removed(
                        user,
                        FunnelPin.ofAuthor(author),
                        pools.removeByAuthor(user, author, entry -> entry.key().source() == FeedSource.FOLLOWING),
                        entry -> entry.source() == FeedSource.FOLLOWING && entry.author() == author);
            }
            case "unfollow_board" -> unfollowBoard(user, event);
            case "unfollow_interest" -> unfollowInterest(user, event.target());
            default -> Uni.createFrom().voidItem();
        };
    }

    private Uni<Void> unfollowBoard(long user, FollowEvent event) {
        long board = PinionId.parse(event.target()).value();
        Predicate<FeedEntry> gone = entry -> entry.source() == FeedSource.FOLLOWING && entry.board() == board;
        if (event.ownerId() == null) {
            return removed(user, FunnelPin.ofBoard(board), Uni.createFrom().item(0), gone);
        }
        long owner = PinionId.parse(event.ownerId()).value();
        return removed(
                user,
                new FunnelPin(0, owner, board),
                pools.removeByBoard(user, owner, board, entry -> entry.key().source() == FeedSource.FOLLOWING),
                gone);
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
                return backfilled(user, FeedSource.FOLLOWING, entries);
            });
        });
    }

    /**
     * The interest's recent pins that still exist (not the user's own) into the interests pool, if the user still
     * follows the interest when the event is handled.
     */
    private Uni<Void> backfillInterest(long user, String interest) {
        return graph.followsInterest(user, interest).chain(follows -> !follows ? Uni.createFrom().voidItem()
                : recentPins.newest(recentPins.interest(interest), Long.MIN_VALUE, config.backfill())
                        .chain(recent -> objects.getAll(ObjectTable.PINS,
                                PinViews.pinIds(recent.stream().map(RecentPin::pin).toList())))
                        .chain(found -> {
                            long now = System.currentTimeMillis();
                            List<PoolEntry> entries = views.activeViews(found).stream()
                                    .filter(pin -> PinionId.parse(pin.ownerId()).value() != user)
                                    .map(pin -> PoolEntry.scored(user, FeedSource.INTERESTS, pin, scorer, now)
                                            .withInterest(interest))
                                    .toList();
                            return backfilled(user, FeedSource.INTERESTS, entries);
                        }));
    }

    /**
     * Removes the pins that came through the interest from the interests pool (at most about
     * {@code pinion.feed.pool-max} rows) and the materialized feed, but keeps a pin also tagged with another interest
     * the user still follows.
     */
    private Uni<Void> unfollowInterest(long user, String interest) {
        return Uni.combine()
                .all()
                .unis(
                        pools.all(user, FeedSource.INTERESTS),
                        materialized.all(user),
                        graph.interests(user, DeliveryRules.MAX_INTERESTS))
                .asTuple()
                .chain(found -> {
                    Set<Long> tagged = new HashSet<>();
                    found.getItem1().stream()
                            .filter(e -> interest.equals(e.interest()))
                            .forEach(e -> tagged.add(e.key().pin()));
                    found.getItem2().stream()
                            .filter(s -> interest.equals(s.entry().interest()))
                            .forEach(s -> tagged.add(s.entry().pin()));
                    Set<String> stillFollowed = new HashSet<>(found.getItem3());
                    stillFollowed.remove(interest);
                    return stillTagged(tagged, stillFollowed).chain(kept -> {
                        List<PoolEntry> doomed = found.getItem1().stream()
                                .filter(e -> interest.equals(e.interest())
                                        && !kept.contains(e.key().pin()))
                                .toList();
                        return removed(
                                user,
                                null,
                                pools.remove(doomed).replaceWith(doomed.size()),
                                entry -> entry.source() == FeedSource.INTERESTS
                                        && interest.equals(entry.interest())
                                        && !kept.contains(entry.pin()));
                    });
                });
    }

    /** Of the pins, those tagged with one of the interests (read from the pins themselves). */
    private Uni<Set<Long>> stillTagged(Set<Long> pins, Set<String> interests) {
        if (pins.isEmpty() || interests.isEmpty()) {
            return Uni.createFrom().item(Set.of());
        }
        return objects.getAll(ObjectTable.PINS, PinViews.pinIds(List.copyOf(pins))).map(found -> {
            Set<Long> kept = new HashSet<>();
            for (PinView pin : views.activeViews(found)) {
                if (pin.interests().stream().anyMatch(interests::contains)) {
                    kept.add(PinionId.parse(pin.id()).value());
                }
            }
            return kept;
        });
    }

    private Uni<Void> backfilled(long user, FeedSource source, List<PoolEntry> entries) {
        return pools.add(entries)
                .invoke(() -> funnel.perRow(FeedFunnel.Stage.POOLED, FeedFunnel.Reason.BACKFILL, entries))
                .chain(() -> cap.changed(user, entries.size()));
    }

    /** Rows gone with an unfollow; {@code counted} names the author or board they were about (null: an interest). */
    private Uni<Void> removed(long user, FunnelPin counted, Uni<Integer> fromPools, Predicate<FeedEntry> gone) {
        return fromPools
                .invoke(rows -> funnel.count(FeedFunnel.Stage.UNFOLLOWED, null, FeedFunnel.Reason.POOL, counted, rows))
                .chain(rows -> cap.changed(user, -rows))
                .chain(() -> materializedWriter.removeWhere(user, gone))
                .invoke(rows -> funnel.count(
                        FeedFunnel.Stage.UNFOLLOWED, null, FeedFunnel.Reason.MATERIALIZED, counted, rows))
                .replaceWithVoid();
    }
}
