package io.pinion.feed.fanout;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.feed.FeedConfig;
import io.pinion.feed.FeedFunnel;
import io.pinion.feed.FeedMetrics;
import io.pinion.feed.FeedScorer;
import io.pinion.feed.FeedSource;
import io.pinion.feed.PoolEntry;
import io.pinion.feed.store.PoolStore;
import io.pinion.feed.store.PulledAuthors;
import io.pinion.graph.FollowItem;
import io.pinion.graph.FollowLists;
import io.pinion.graph.FollowQueries;
import io.pinion.graph.UserList;
import io.pinion.id.PinionId;
import io.pinion.paging.Position;
import io.pinion.pins.PinView;
import io.pinion.pins.PinViews;
import io.pinion.queue.LeasedJob;
import io.pinion.queue.work.JobHandler;
import io.pinion.queue.work.JobWorker;
import io.pinion.store.MappingStore;
import io.pinion.store.MappingTable;
import io.pinion.store.ObjectStore;
import io.pinion.store.ObjectTable;
import io.pinion.store.Sequences;
import io.smallrye.mutiny.Uni;

/**
 * Runs {@code feed-regenerate} jobs: a user back after {@code pinion.feed.inactive-after} got nothing pushed while
 * away, so their following pool is refilled by pull. From each of their {@code pinion.feed.followed-sources-max}
 * most recently followed users (pushed ones: pulled authors are read at every visit anyway) and boards, the newest
 * {@code pinion.feed.regenerate-per-source} pins created since their last visit (one statement per shard) that
 * still exist, are not their own and are on boards they receive, are scored and put into the pool. Bounded work:
 * at most (users + boards) × per-source pins.
 */
@ApplicationScoped
@JobHandler(value = FeedJobs.REGENERATE, concurrency = 4, partitions = 4, maxAttempts = 100, leaseMs = 60_000,
        retryDelayMs = 1000, retryMaxDelayMs = 60_000)
public class RegenerateWorker implements JobWorker {

    private static final Position NEWEST = new Position(Long.MAX_VALUE, Long.MAX_VALUE);

    private final FeedJobs jobs;
    private final FollowLists lists;
    private final FollowQueries graph;
    private final PulledAuthors pulled;
    private final MappingStore mappings;
    private final ObjectStore objects;
    private final PinViews views;
    private final PoolStore pools;
    private final PoolCap cap;
    private final FeedScorer scorer;
    private final FeedConfig config;
    private final FeedMetrics metrics;
    private final FeedFunnel funnel;

    RegenerateWorker(FeedJobs jobs, FollowLists lists, FollowQueries graph, PulledAuthors pulled, MappingStore mappings,
            ObjectStore objects, PinViews views, PoolStore pools, PoolCap cap, FeedScorer scorer, FeedConfig config,
            FeedMetrics metrics, FeedFunnel funnel) {
        this.jobs = jobs;
        this.lists = lists;
        this.graph = graph;
        this.pulled = pulled;
        this.mappings = mappings;
        this.objects = objects;
        this.views = views;
        this.pools = pools;
        this.cap = cap;
        this.scorer = scorer;
        this.config = config;
        this.metrics = metrics;
        this.funnel = funnel;
    }

    @Override
    public Uni<Void> handle(LeasedJob job) {
        Regeneration regeneration = jobs.read(job.body(), Regeneration.class);
        long user = regeneration.user();
        long after = regeneration.since() << Sequences.GAP_BITS;
        int sources = config.followedSourcesMax();
        int perSource = config.regeneratePerSource();
        return Uni.combine()
                .all()
                .unis(
                        lists.ofUser(user, UserList.FOLLOWING, null, sources),
                        lists.ofUser(user, UserList.BOARDS, null, sources))
                .asTuple()
                .chain(follows -> {
                    List<PinionId> authors = ids(follows.getItem1().items()).stream()
                            .filter(author -> !pulled.contains(author.value()))
                            .toList();
                    return Uni.combine()
                            .all()
                            .unis(
                                    mappings.below(MappingTable.USER_HAS_PINS, authors, NEWEST, perSource),
                                    mappings.below(
                                            MappingTable.BOARD_HAS_PINS,
                                            ids(follows.getItem2().items()),
                                            NEWEST,
                                            perSource))
                            .asTuple();
                })
                .chain(found -> {
                    Set<Long> fromUsers = new HashSet<>();
                    Set<Long> all = new HashSet<>();
                    found.getItem1().stream()
                            .filter(row -> row.sequence() > after)
                            .forEach(row -> fromUsers.add(row.to()));
                    found.getItem2().stream()
                            .filter(row -> row.sequence() > after)
                            .forEach(row -> all.add(row.to()));
                    all.addAll(fromUsers);
                    return objects.getAll(ObjectTable.PINS, PinViews.pinIds(List.copyOf(all)))
                            .map(views::activeViews)
                            .chain(pins -> received(user, pins, fromUsers));
                })
                .chain(pins -> {
                    long now = System.currentTimeMillis();
                    List<PoolEntry> entries = pins.stream()
                            .map(pin -> PoolEntry.scored(user, FeedSource.FOLLOWING, pin, scorer, now))
                            .toList();
                    return pools.add(entries)
                            .invoke(() ->
                                    funnel.perRow(FeedFunnel.Stage.POOLED, FeedFunnel.Reason.REGENERATED, entries))
                            .chain(() -> cap.changed(user, entries.size()));
                })
                .invoke(metrics::regenerated);
    }

    /** The pins that are not the user's own and, for those of followed users, on boards the user still receives. */
    private Uni<List<PinView>> received(long user, List<PinView> pins, Set<Long> fromUsers) {
        List<PinView> others = pins.stream().filter(pin -> PinionId.parse(pin.ownerId()).value() != user).toList();
        Map<PinionId, Long> owners = new LinkedHashMap<>();
        others.stream().filter(pin -> fromUsers.contains(Long.parseLong(pin.id())))
                .forEach(pin -> owners.put(PinionId.parse(pin.boardId()), PinionId.parse(pin.ownerId()).value()));
        if (owners.isEmpty()) {
            return Uni.createFrom().item(others);
        }
        List<PinionId> boards = List.copyOf(owners.keySet());
        return graph.followsBoards(user, boards, owners).map(follows -> {
            Map<PinionId, Boolean> received = new HashMap<>();
            for (int i = 0; i < boards.size(); i++) {
                received.put(boards.get(i), follows.get(i));
            }
            List<PinView> kept = new ArrayList<>();
            for (PinView pin : others) {
                Boolean onReceivedBoard = received.get(PinionId.parse(pin.boardId()));
                if (onReceivedBoard == null || onReceivedBoard) {
                    kept.add(pin);
                }
            }
            return kept;
        });
    }

    private static List<PinionId> ids(List<FollowItem> items) {
        return items.stream().map(item -> PinionId.parse(item.id())).toList();
    }
}
