package io.pinion.feed.read;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.pinion.failure.EventLoopLag;
import io.pinion.failure.Outages;
import io.pinion.feed.FeedConfig;
import io.pinion.feed.FeedEntry;
import io.pinion.feed.FeedFunnel;
import io.pinion.feed.FunnelPin;
import io.pinion.feed.FeedMetrics;
import io.pinion.feed.FeedState;
import io.pinion.feed.PoolRow;
import io.pinion.feed.fanout.FeedJobs;
import io.pinion.feed.fanout.PersistChunk;
import io.pinion.feed.fanout.Regeneration;
import io.pinion.feed.store.FeedStates;
import io.pinion.feed.store.FeedWindows;
import io.pinion.feed.store.MaterializedFeed;
import io.pinion.feed.store.MaterializedKey;
import io.pinion.id.PinionId;
import io.pinion.paging.Page;
import io.pinion.paging.Position;
import io.pinion.pins.PinViews;
import io.pinion.pins.RenderedPin;
import io.pinion.store.ObjectStore;
import io.pinion.store.ObjectTable;
import io.smallrye.mutiny.Uni;

/**
 * The home feed. The first page asks the content generator for a new chunk (within
 * {@code pinion.feed.generator-budget}) while it reads the materialized feed, and answers the chunk followed by the
 * materialized feed; later pages read the materialized feed from the cursor, and past its end the feed goes on with
 * older pins of what the user follows ({@link OlderPins}), leaving out those already shown through the feed's shown
 * index: no page reads the whole materialized feed. If the generator fails or overruns, the page is the
 * materialized feed alone and the user's next chunk is larger (not when the overrun was the busy service's own).
 * The chunk is materialized and removed from the pools after the response, by a {@code feed-persist} job. The first
 * page also records the visit, and a user back after {@code pinion.feed.inactive-after} gets a regeneration ({@code
 * feed-regenerate}).
 */
@ApplicationScoped
public class HomeFeedService {

    private static final Logger LOG = Logger.getLogger(HomeFeedService.class);
    private static final Uni<Void> NOTHING = Uni.createFrom().voidItem();

    private final ContentGenerator generator;
    private final MaterializedFeed materialized;
    private final OlderPins older;
    private final FeedStates states;
    private final FeedJobs jobs;
    private final ObjectStore objects;
    private final PinViews views;
    private final FeedCursors cursors;
    private final FeedConfig config;
    private final FeedMetrics metrics;
    private final FeedFunnel funnel;
    private final EventLoopLag lag;
    private final FeedWindows windows;

    HomeFeedService(
            ContentGenerator generator,
            MaterializedFeed materialized,
            OlderPins older,
            FeedStates states,
            FeedJobs jobs,
            ObjectStore objects,
            PinViews views,
            FeedCursors cursors,
            FeedConfig config,
            FeedMetrics metrics,
            FeedFunnel funnel,
            EventLoopLag lag,
            FeedWindows windows) {
        this.lag = lag;
        this.windows = windows;
        this.generator = generator;
        this.materialized = materialized;
        this.older = older;
        this.states = states;
        this.jobs = jobs;
        this.objects = objects;
        this.views = views;
        this.cursors = cursors;
        this.config = config;
        this.metrics = metrics;
        this.funnel = funnel;
    }

    public Uni<Page<FeedItem>> page(PinionId userId, String cursor, int limit) {
        long user = userId.value();
        FeedCursors.At at = cursors.decode(user, cursor);
        if (at == null) {
            return firstPage(user, limit);
        }
        if (at.older()) {
            return olderPage(user, at.position(), limit, Set.of(), List.of(), Fill.FULL);
        }
        long after = at.position().sequence();
        return materialized.page(user, after, limit + 1)
                .chain(stored -> respond(user, List.of(), NOTHING, stored, limit, pins(stored),
                        chunkTime(stored, after), Fill.FULL));
    }

    /**
     * The first page: the generator's chunk and the newest materialized entries read at once; then the chunk's
     * durable persist job and the hydration of the chunk and the page together (one multi-get), side by side. The
     * page answers only once the persist job is stored, so a chunk shown is a chunk kept. The chunk leaves out the
     * pins of the entries read; an older copy further down is removed when the chunk is written (the newest copy
     * of a pin wins), so no visit reads the whole materialized feed.
     */
    private Uni<Page<FeedItem>> firstPage(long user, int limit) {
        long now = System.currentTimeMillis();
        AtomicReference<PullSources> read = new AtomicReference<>(PullSources.NONE);
        Uni<Candidates> fresh = generator.sources(user)
                .invoke(sources -> {
                    read.set(sources);
                    visited(user, sources, now);
                })
                .chain(sources -> generator.candidates(user, sources, now))
                .ifNoItem().after(config.generatorBudget()).failWith(TimeoutException::new)
                .onFailure().invoke(failure -> missed(user, read.get(), failure))
                .onFailure().recoverWithNull();
        return Uni.combine().all().unis(fresh, materialized.page(user, null, limit + 1)).asTuple()
                .chain(both -> {
                    List<MaterializedFeed.Stored> first = both.getItem2();
                    Set<Long> shown = pins(first);
                    Candidates candidates = both.getItem1();
                    if (candidates == null) {
                        // a degraded first page keeps to the budget: older pins only by the cursor
                        return respond(user, List.of(), NOTHING, first, limit, shown, oldest(first, read.get(), now),
                                Fill.CURSOR_ONLY);
                    }
                    metrics.generator(false, false);
                    long newest = first.isEmpty() ? 0 : first.get(0).position() / MaterializedKey.MAX_CHUNK;
                    Chunk chunk = generator.plan(Math.max(now, newest + 1), candidates, shown);
                    funnel.planned(chunk.counts());
                    Set<Long> seen = new HashSet<>(shown);
                    Set<Long> handedOut = new HashSet<>();
                    chunk.entries().forEach(entry -> handedOut.add(entry.pin()));
                    seen.addAll(handedOut);
                    // their older copies further down leave with the chunk's write: not on the next pages either
                    windows.exclude(user, handedOut);
                    long oldest = oldest(first, read.get(), chunk.id());
                    return respond(user, chunk.entries(), persist(user, chunk), first, limit, seen, oldest,
                            Fill.WITHIN_BUDGET);
                });
    }

    /**
     * What the user's first page would show, with the older pins after it, read as a first page reads them but
     * changing nothing: no visit recorded, no chunk persisted, no pool row consumed, nothing counted in the funnel.
     * The warm-up's feed reads, which compile the feed's paths before the first user comes. The items it would show.
     */
    public Uni<Integer> preview(PinionId userId, int limit) {
        long user = userId.value();
        long now = System.currentTimeMillis();
        AtomicReference<PullSources> read = new AtomicReference<>(PullSources.NONE);
        Uni<Candidates> fresh = generator.sources(user).invoke(read::set)
                .chain(sources -> generator.candidates(user, sources, now));
        return Uni.combine().all().unis(fresh, materialized.page(user, null, limit + 1)).asTuple()
                .chain(both -> {
                    List<MaterializedFeed.Stored> first = both.getItem2();
                    Chunk chunk = generator.plan(now, both.getItem1(), pins(first));
                    Set<Long> seen = pins(first);
                    chunk.entries().forEach(entry -> seen.add(entry.pin()));
                    List<FeedEntry> old = first.subList(0, Math.min(limit, first.size())).stream()
                            .map(MaterializedFeed.Stored::entry).toList();
                    return hydrate(chunk.entries(), old, false).chain(items -> older
                            .preview(user, OlderPins.start(oldest(first, read.get(), now)), limit, seen,
                                    OlderPins.Pooled.SKIP)
                            .map(olderItems -> items.size() + olderItems));
                });
    }

    /** Records the visit and, for a user who was inactive, asks for a regeneration; neither holds the page up. */
    private void visited(long user, PullSources sources, long now) {
        if (sources == PullSources.NONE) {
            return;
        }
        FeedState state = sources.state();
        Uni<Void> regenerate = !state.inactive(now, config.inactiveAfter().toMillis())
                ? Uni.createFrom().voidItem()
                : jobs.enqueueOnce(
                        FeedJobs.REGENERATE, new Regeneration(user, state.lastVisit()), "regenerate:" + user);
        regenerate.chain(() -> states.visited(user, state, now)).subscribe().with(ignored -> { },
                failure -> LOG.debugf("visit of user %d not recorded: %s", user, Outages.describe(failure)));
    }

    /**
     * A visit without a chunk: the next chunk is twice as large (the content waiting for the user grows), unless the
     * generator overran its budget because the service itself is busy (its event loops lag): a larger chunk would
     * only make the next visits costlier and keep the service overloaded.
     */
    private void missed(long user, PullSources sources, Throwable failure) {
        boolean overrun = failure instanceof TimeoutException;
        metrics.generator(overrun, !overrun);
        LOG.debugf("no chunk for user %d: %s", user, overrun ? "over the generator budget" : Outages.describe(failure));
        if (overrun && lag.busy()) {
            return;
        }
        Integer asked = sources.state().chunkSize();
        int next = Math.min(config.maxChunkSize(), Math.max(config.chunkSize(), asked == null ? 0 : asked) * 2);
        states.grow(user, next).subscribe().with(ignored -> { },
                error -> LOG.debugf("chunk size of user %d not grown: %s", user, Outages.describe(error)));
    }

    /** The chunk's persist job; pins deleted since they were pooled are dropped when the feed is read. */
    private Uni<Void> persist(long user, Chunk chunk) {
        if (chunk.entries().isEmpty() && chunk.consumed().isEmpty() && chunk.carried().isEmpty()) {
            return NOTHING;
        }
        PersistChunk body = new PersistChunk(
                user,
                chunk.id(),
                chunk.entries(),
                chunk.consumed().stream().map(PoolRow::of).toList(),
                chunk.carried().stream().map(PoolRow::of).toList(),
                chunk.pulledUntil());
        return jobs.enqueue(FeedJobs.PERSIST, List.of(body))
                .onFailure().recoverWithItem(failure -> {
                    LOG.warnf("chunk %d of user %d not persisted (its pins stay in the pools): %s", chunk.id(), user,
                            Outages.describe(failure));
                    return null;
                });
    }

    /** How a page that reaches the end of the materialized feed goes on with older pins. */
    private enum Fill {
        /** As many as the page has room for. */
        FULL,
        /** As many as can be read within the generator budget (a first page), else a cursor to them. */
        WITHIN_BUDGET,
        /** None: a cursor to them (a first page that already spent its budget on a failed generator). */
        CURSOR_ONLY
    }

    /**
     * The page: the fresh chunk, then up to {@code limit} materialized entries, hydrated together while
     * {@code alongside} (the chunk's persist job) runs; when the materialized feed ends on this page, older pins fill
     * the rest of it.
     */
    private Uni<Page<FeedItem>> respond(long user, List<FeedEntry> fresh, Uni<Void> alongside,
            List<MaterializedFeed.Stored> stored, int limit, Set<Long> shown, long oldestChunk, Fill fill) {
        boolean more = stored.size() > limit;
        List<MaterializedFeed.Stored> page = more ? stored.subList(0, limit) : stored;
        List<FeedEntry> old = page.stream().map(MaterializedFeed.Stored::entry).toList();
        Uni<List<FeedItem>> items = alongside == NOTHING
                ? hydrate(fresh, old, true)
                : Uni.combine()
                        .all()
                        .unis(hydrate(fresh, old, true), alongside)
                        .with((hydrated, persisted) -> hydrated);
        if (more) {
            MaterializedFeed.Stored last = page.get(page.size() - 1);
            String next = cursors.materialized(user, new Position(last.position(), last.entry().pin()));
            return items.map(shownItems -> new Page<>(shownItems, next));
        }
        return items.chain(shownItems -> olderPage(user, OlderPins.start(oldestChunk), limit - page.size(), shown,
                shownItems, fill));
    }

    /**
     * Older pins after {@code before}, behind {@code ahead} on the page. With no room left, or when they are not to be
     * read now ({@link Fill}), the page ends with a cursor to them.
     */
    private Uni<Page<FeedItem>> olderPage(long user, Position before, int room, Set<Long> shown, List<FeedItem> ahead,
            Fill fill) {
        String startHere = cursors.older(user, before);
        if (room <= 0 || fill == Fill.CURSOR_ONLY) {
            return Uni.createFrom().item(new Page<>(ahead, startHere));
        }
        Uni<OlderPins.OlderPage> page = older.page(user, before, room, shown,
                fill == Fill.FULL ? OlderPins.Pooled.SHOW : OlderPins.Pooled.SKIP);
        if (fill == Fill.WITHIN_BUDGET) {
            page = page.ifNoItem().after(config.generatorBudget()).fail()
                    .onFailure().invoke(failure -> LOG.debugf("older pins of user %d not read: %s", user,
                            Outages.describe(failure)))
                    .onFailure().recoverWithNull();
        }
        return page.map(found -> {
            if (found == null) {
                return new Page<>(ahead, startHere);
            }
            List<FeedItem> items = new ArrayList<>(ahead);
            found.items().forEach(view -> items.add(new FeedItem(view.pin(), view.entry().source().label(), false)));
            return new Page<>(items, found.next() == null ? null : cursors.older(user, found.next()));
        });
    }

    /**
     * Where older pins start on a first page: below the oldest materialized chunk; for a user with an empty
     * materialized feed, below this visit, or below their last visit if they were away (what came since is theirs
     * through the pools and a regeneration, and would be shown twice).
     */
    private static long oldest(List<MaterializedFeed.Stored> stored, PullSources sources, long now) {
        if (!stored.isEmpty()) {
            return chunkTime(stored, null);
        }
        Long visit = sources.state().lastVisit();
        return visit == null ? now : Math.min(visit, now);
    }

    /** The generation time of the oldest chunk among the entries, else of the chunk a cursor position is in. */
    private static long chunkTime(List<MaterializedFeed.Stored> stored, Long position) {
        if (!stored.isEmpty()) {
            return stored.get(stored.size() - 1).position() / MaterializedKey.MAX_CHUNK;
        }
        return position == null ? System.currentTimeMillis() : position / MaterializedKey.MAX_CHUNK;
    }

    private static Set<Long> pins(List<MaterializedFeed.Stored> stored) {
        Set<Long> pins = new HashSet<>();
        stored.forEach(s -> pins.add(s.entry().pin()));
        return pins;
    }

    /**
     * The fresh and the materialized entries whose pins still exist, as page items in order: one multi-get for
     * both (the object cache, then MySQL for misses, one query per shard). {@code counted}: the fresh entries count in
     * the funnel (a page a user is shown).
     */
    private Uni<List<FeedItem>> hydrate(List<FeedEntry> fresh, List<FeedEntry> old, boolean counted) {
        if (fresh.isEmpty() && old.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        List<PinionId> ids = new ArrayList<>(fresh.size() + old.size());
        fresh.forEach(entry -> ids.add(PinionId.decode(entry.pin())));
        old.forEach(entry -> ids.add(PinionId.decode(entry.pin())));
        return objects.getAll(ObjectTable.PINS, ids).map(found -> {
            Map<Long, RenderedPin> byId = new HashMap<>();
            for (var stored : found) {
                RenderedPin view = views.rendered(stored);
                if (view != null) {
                    byId.put(stored.id().value(), view);
                }
            }
            List<FeedItem> items = new ArrayList<>(fresh.size() + old.size());
            add(items, fresh, byId, true, counted);
            add(items, old, byId, false, false);
            return items;
        });
    }

    /**
     * Adds the entries whose pins are active; a fresh entry of a counted page counts in the funnel as shown, or dropped
     * as deleted.
     */
    private void add(List<FeedItem> items, List<FeedEntry> entries, Map<Long, RenderedPin> views, boolean fresh,
            boolean counted) {
        for (FeedEntry entry : entries) {
            RenderedPin view = views.get(entry.pin());
            if (view != null) {
                items.add(new FeedItem(view, entry.source().label(), fresh));
            }
            if (fresh && counted) {
                funnel.count(view != null ? FeedFunnel.Stage.SHOWN : FeedFunnel.Stage.DROPPED, entry.source(),
                        view != null ? FeedFunnel.Reason.NONE : FeedFunnel.Reason.DELETED, FunnelPin.of(entry), 1);
            }
        }
    }
}
