package io.pinion.seed;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.feed.FeedConfig;
import io.pinion.feed.FeedEntry;
import io.pinion.feed.PoolEntry;
import io.pinion.feed.store.FeedStates;
import io.pinion.feed.store.MaterializedWriter;
import io.pinion.feed.store.PoolStore;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/**
 * The sample users' past visits, after their follow backfills: what a user who last opened the feed at their
 * recorded visit would have been shown by then. Of the pins the backfills pooled for the user, those created before
 * the last visit move to the materialized feed (newest first, in chunks of {@code pinion.feed.chunk-size}, at most
 * {@code pinion.feed.materialized-max}; older ones would have left it), and leave the pools; the pins created since
 * stay in the pools for the next visit, and the pulled sources count as read up to the last visit. So a seeded
 * active user's first page after the seed is a return visit, as in the steady state of any user who reads the feed,
 * and a user away for long (whose backfilled pins are mostly newer than the last visit) comes back to full pools.
 * Written through the feed's own stores, as the visits' persist jobs would have written it.
 */
@ApplicationScoped
class SeedPastFeeds {

    /** Users written at once. */
    private static final int CONCURRENCY = 16;

    private final PoolStore pools;
    private final MaterializedWriter materialized;
    private final FeedStates states;
    private final FeedConfig config;

    SeedPastFeeds(PoolStore pools, MaterializedWriter materialized, FeedStates states, FeedConfig config) {
        this.pools = pools;
        this.materialized = materialized;
        this.states = states;
        this.config = config;
    }

    /** What one user's past visits leave: entries in the materialized feed, rows left in the pools. */
    record Past(int shown, int pooled) {
    }

    /** Every sample user's past visits. */
    Uni<Void> write(SeedData data, SeedIds ids, SeedProgress progress) {
        List<Integer> samples = new ArrayList<>(data.samples.length);
        for (int sample : data.samples) {
            samples.add(sample);
        }
        return Multi.createFrom().iterable(samples)
                .onItem().transformToUni(u -> user(ids.users[u], data.lastVisit[u]).invoke(() -> progress.add(1)))
                .merge(CONCURRENCY)
                .collect().last()
                .replaceWithVoid();
    }

    /** One user's past: the pooled pins created before the visit are shown, newest first, and leave the pools. */
    Uni<Past> user(long user, long lastVisit) {
        return pools.everything(user).chain(rows -> {
            List<PoolEntry> before = new ArrayList<>();
            for (PoolEntry row : rows) {
                if (row.pinCreated() <= lastVisit) {
                    before.add(row);
                }
            }
            before.sort(Comparator.comparingLong(PoolEntry::pinCreated).reversed()
                    .thenComparing(row -> row.key().pin(), Comparator.reverseOrder()));
            List<FeedEntry> shown = dropRepeats(before, config.materializedMax());
            int left = rows.size() - before.size();
            return chunks(user, lastVisit, shown)
                    .chain(() -> pools.remove(before))
                    .chain(() -> states.poolRows(user, left))
                    .chain(() -> states.persisted(user, lastVisit, 0))
                    .replaceWith(new Past(shown.size(), left));
        });
    }

    /** The newest {@code max} entries, a pin once (a pin pooled by two sources is shown once). */
    private static List<FeedEntry> dropRepeats(List<PoolEntry> newestFirst, int max) {
        List<FeedEntry> shown = new ArrayList<>(Math.min(max, newestFirst.size()));
        Set<Long> pins = new HashSet<>();
        for (PoolEntry row : newestFirst) {
            if (shown.size() == max) {
                break;
            }
            if (pins.add(row.key().pin())) {
                shown.add(FeedEntry.of(row));
            }
        }
        return shown;
    }

    /**
     * The entries as consecutive chunks, newest first, written one after the other (each write reads the feed's
     * count). Chunk ids are the last visit less the chunk's place, so the chunk of the newest pins is the newest.
     */
    private Uni<Void> chunks(long user, long lastVisit, List<FeedEntry> shown) {
        int size = Math.max(1, config.chunkSize());
        Uni<Void> chain = Uni.createFrom().voidItem();
        for (int start = 0, chunk = 0; start < shown.size(); start += size, chunk++) {
            List<FeedEntry> entries = shown.subList(start, Math.min(shown.size(), start + size));
            long chunkId = lastVisit - chunk;
            chain = chain.chain(() -> materialized.write(user, chunkId, entries).replaceWithVoid());
        }
        return chain;
    }
}
