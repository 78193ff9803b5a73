package io.pinion.feed;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.pinion.id.PinionId;
import io.pinion.pins.PinView;
import io.pinion.pins.PinViews;
import io.pinion.store.ObjectStore;
import io.pinion.store.ObjectTable;
import io.pinion.store.Position;
import io.pinion.web.BackendFailures;
import io.pinion.web.Cursors;
import io.pinion.web.Page;
import io.smallrye.mutiny.Uni;

/**
 * The home feed. The first page asks the content generator for a new chunk (within
 * {@code pinion.feed.generator-budget}) while it reads the materialized feed, and answers the chunk followed by the
 * materialized feed; later pages read the materialized feed from the cursor. If the generator fails or overruns,
 * the page is the materialized feed alone and the user's next chunk is larger. The chunk is materialized and
 * removed from the pools after the response, by a {@code feed-persist} job.
 */
@ApplicationScoped
public class HomeFeedService {

    private static final Logger LOG = Logger.getLogger(HomeFeedService.class);

    private final ContentGenerator generator;
    private final MaterializedFeed materialized;
    private final ChunkSizes sizes;
    private final FeedJobs jobs;
    private final ObjectStore objects;
    private final PinViews views;
    private final Cursors cursors;
    private final FeedConfig config;

    HomeFeedService(ContentGenerator generator, MaterializedFeed materialized, ChunkSizes sizes, FeedJobs jobs,
            ObjectStore objects, PinViews views, Cursors cursors, FeedConfig config) {
        this.generator = generator;
        this.materialized = materialized;
        this.sizes = sizes;
        this.jobs = jobs;
        this.objects = objects;
        this.views = views;
        this.cursors = cursors;
        this.config = config;
    }

    public Uni<Page<FeedItem>> page(PinionId userId, String cursor, int limit) {
        long user = userId.value();
        String list = "home-feed:" + user;
        Position after = cursors.decode(list, cursor);
        if (after != null) {
            return materialized.page(user, after.sequence(), limit + 1)
                    .chain(stored -> respond(list, List.of(), stored, limit));
        }
        // the budget covers the chunk size lookup too; a failed or late chunk makes the next one larger, without
        // holding this answer back for that write
        AtomicInteger asked = new AtomicInteger(config.chunkSize());
        Uni<Chunk> fresh = sizes.next(user)
                .invoke(asked::set)
                .chain(size -> generator.generate(user, 0, size, Set.of()))
                .ifNoItem().after(config.generatorBudget()).fail()
                .onFailure().invoke(failure -> grow(user, asked.get(), failure))
                .onFailure().recoverWithNull();
        return Uni.combine().all().unis(fresh, materialized.all(user)).asTuple()
                .chain(both -> {
                    List<MaterializedFeed.Stored> shown = both.getItem2();
                    Chunk chunk = both.getItem1() == null ? null : withoutShown(both.getItem1(), shown);
                    List<MaterializedFeed.Stored> first = shown.subList(0, Math.min(shown.size(), limit + 1));
                    if (chunk == null) {
                        return respond(list, List.of(), first, limit);
                    }
                    return hydrate(chunk.entries()).chain(live -> persist(user, chunk, live)
                            .chain(() -> respond(list, live, first, limit)));
                });
    }

    /** Drops from the chunk what the user was already shown (those rows still leave the pools); assigns its id. */
    private static Chunk withoutShown(Chunk chunk, List<MaterializedFeed.Stored> shown) {
        Set<Long> pins = new HashSet<>();
        shown.forEach(stored -> pins.add(stored.entry().pin()));
        long newest = shown.isEmpty() ? 0 : shown.get(0).position() / MaterializedKey.MAX_CHUNK;
        long id = Math.max(System.currentTimeMillis(), newest + 1);
        return new Chunk(id, chunk.entries().stream().filter(entry -> !pins.contains(entry.pin())).toList(), chunk.consumed());
    }

    private Uni<Void> persist(long user, Chunk chunk, List<FeedEntryView> live) {
        List<FeedEntry> entries = live.stream().map(FeedEntryView::entry).toList();
        List<PersistChunk.Consumed> consumed = chunk.consumed().stream().map(PersistChunk.Consumed::of).toList();
        return jobs.enqueue(FeedJobs.PERSIST, List.of(new PersistChunk(user, chunk.id(), entries, consumed)))
                .onFailure().recoverWithItem(failure -> {
                    LOG.warnf("chunk %d of user %d not persisted (its pins stay in the pools): %s", chunk.id(), user,
                            BackendFailures.describe(failure));
                    return null;
                });
    }

    private void grow(long user, int size, Throwable failure) {
        LOG.debugf("no chunk for user %d: %s", user, BackendFailures.describe(failure));
        sizes.grow(user, size).subscribe().with(ignored -> { },
                error -> LOG.debugf("chunk size of user %d not grown: %s", user, BackendFailures.describe(error)));
    }

    private Uni<Page<FeedItem>> respond(String list, List<FeedEntryView> fresh, List<MaterializedFeed.Stored> stored,
            int limit) {
        boolean more = stored.size() > limit;
        List<MaterializedFeed.Stored> shown = more ? stored.subList(0, limit) : stored;
        return hydrate(shown.stream().map(MaterializedFeed.Stored::entry).toList()).map(old -> {
            List<FeedItem> items = new ArrayList<>();
            fresh.forEach(view -> items.add(new FeedItem(view.pin(), view.entry().source().label(), true)));
            old.forEach(view -> items.add(new FeedItem(view.pin(), view.entry().source().label(), false)));
            String next = null;
            if (more) {
                MaterializedFeed.Stored last = shown.get(shown.size() - 1);
                next = cursors.encode(list, new Position(last.position(), last.entry().pin()));
            }
            return new Page<>(items, next);
        });
    }

    /** The entries whose pins still exist, with their views, in order (one query per shard). */
    private Uni<List<FeedEntryView>> hydrate(List<FeedEntry> entries) {
        if (entries.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        List<PinionId> ids = entries.stream().map(entry -> PinionId.decode(entry.pin())).distinct().toList();
        return objects.getAll(ObjectTable.PINS, ids).map(found -> {
            Map<String, PinView> byId = new LinkedHashMap<>();
            views.activeViews(found).forEach(view -> byId.put(view.id(), view));
            List<FeedEntryView> live = new ArrayList<>();
            for (FeedEntry entry : entries) {
                PinView view = byId.get(Long.toString(entry.pin()));
                if (view != null) {
                    live.add(new FeedEntryView(entry, view));
                }
            }
            return live;
        });
    }

    /** A feed entry and its pin's view. */
    record FeedEntryView(FeedEntry entry, PinView pin) {
    }
}
