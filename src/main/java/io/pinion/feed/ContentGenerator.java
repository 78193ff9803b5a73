package io.pinion.feed;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;

import io.smallrye.mutiny.Uni;

/**
 * Decides what is new for a user: reads the best candidates of each of the user's pools (one prefix scan per
 * source, in parallel) and lets {@link ChunkPlan} pick the chunk. It removes nothing itself: what it hands out leaves
 * the pools only after the chunk is materialized (the {@code feed-persist} job), so no pin is lost in between.
 */
@ApplicationScoped
public class ContentGenerator {

    private final PoolStore pools;
    private final FeedConfig config;
    private final FeedScorer scorer;

    ContentGenerator(PoolStore pools, FeedConfig config, FeedScorer scorer) {
        this.pools = pools;
        this.config = config;
        this.scorer = scorer;
    }

    public Uni<Chunk> generate(long user, long chunkId, int size, Set<Long> alreadyShown) {
        int fetch = Math.min(size * 2, 1000);
        Uni<List<PoolEntry>> following = pools.top(user, FeedSource.FOLLOWING, fetch);
        Uni<List<PoolEntry>> related = pools.top(user, FeedSource.RELATED, fetch);
        Uni<List<PoolEntry>> interests = pools.top(user, FeedSource.INTERESTS, fetch);
        return Uni.combine().all().unis(following, related, interests).with((f, r, i) -> {
            Map<FeedSource, List<PoolEntry>> candidates = new EnumMap<>(FeedSource.class);
            candidates.put(FeedSource.FOLLOWING, f);
            candidates.put(FeedSource.RELATED, r);
            candidates.put(FeedSource.INTERESTS, i);
            long now = System.currentTimeMillis();
            return ChunkPlan.plan(chunkId, Math.min(size, MaterializedKey.MAX_CHUNK), candidates, alreadyShown, config,
                    score -> scorer.valueAt(score, now));
        });
    }
}
