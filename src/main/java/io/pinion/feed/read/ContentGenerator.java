package io.pinion.feed.read;

import java.util.List;
import java.util.Map;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.pinion.failure.Outages;
import io.pinion.feed.FeedConfig;
import io.pinion.feed.FeedMetrics;
import io.pinion.feed.FeedScorer;
import io.pinion.feed.FeedSource;
import io.pinion.feed.FeedState;
import io.pinion.feed.PoolEntry;
import io.pinion.feed.store.MaterializedKey;
import io.pinion.feed.store.PoolStore;
import io.smallrye.mutiny.Uni;

/**
 * Decides what is new for a user. It reads the user's feed state and pulled sources (one round trip to the user's
 * Redis shard), then in parallel the best candidates of each of the user's pools (one scan over the three pools
 * while they are small, {@link PoolStore#best}) and
 * the newest pins of the pulled authors and interests the user follows since the last pull; {@link ChunkPlan} picks
 * the chunk from both. It removes nothing itself: what it hands out leaves the pools, and what it pulled but did not
 * show enters them, only after the chunk is materialized (the {@code feed-persist} job), so no pin is lost in
 * between. Each part degrades alone: without Redis the pools are read at the configured chunk size, without the pools
 * the pulled pins still make a chunk.
 */
@ApplicationScoped
public class ContentGenerator {

    private static final Logger LOG = Logger.getLogger(ContentGenerator.class);

    private final PoolStore pools;
    private final PullReader pull;
    private final FeedConfig config;
    private final FeedScorer scorer;
    private final FeedMetrics metrics;

    ContentGenerator(PoolStore pools, PullReader pull, FeedConfig config, FeedScorer scorer, FeedMetrics metrics) {
        this.pools = pools;
        this.pull = pull;
        this.config = config;
        this.scorer = scorer;
        this.metrics = metrics;
    }

    /** The user's feed state and pulled sources; nothing to pull (and the defaults) when Redis does not answer. */
    public Uni<PullSources> sources(long user) {
        return pull.sources(user).onFailure().recoverWithItem(failure -> {
            LOG.debugf("pulled sources of user %d not read: %s", user, Outages.describe(failure));
            return PullSources.NONE;
        });
    }

    /** Everything a chunk is planned from. Fails only when neither the pools nor the pulled sources answer. */
    public Uni<Candidates> candidates(long user, PullSources sources, long now) {
        FeedState state = sources.state();
        int size = state.chunkSize() == null ? config.chunkSize()
                : Math.max(1, Math.min(config.maxChunkSize(), state.chunkSize()));
        int fetch = Math.min(size * 2, 1000);
        long since = Math.max(now - config.pullHorizon().toMillis(),
                state.pulledUntil() == null ? Long.MIN_VALUE : state.pulledUntil() - config.pullOverlap().toMillis());
        Uni<Map<FeedSource, List<PoolEntry>>> pooled;
        if (emptyPools(state, now)) {
            metrics.poolScanSkipped();
            pooled = Uni.createFrom().item(Map.of());
        } else {
            pooled = pools.best(user, fetch, state.poolRows());
        }
        Uni<List<PoolEntry>> pulled = pull.candidates(user, sources, since, fetch, now)
                .invoke(found -> metrics.pulled(found.size()));
        if (sources == PullSources.NONE) {
            return pooled.map(bySource -> new Candidates(state, size, bySource, List.of(), now));
        }
        return Uni.combine().all().unis(pooled.onFailure().recoverWithNull(), pulled).asTuple()
                .map(both -> {
                    if (both.getItem1() == null && both.getItem2().isEmpty()) {
                        throw new IllegalStateException("the pools did not answer and there was nothing to pull");
                    }
                    Map<FeedSource, List<PoolEntry>> bySource = both.getItem1() == null ? Map.of() : both.getItem1();
                    return new Candidates(state, size, bySource, both.getItem2(), now);
                });
    }

    /**
     * Whether the user's pools are known to be empty without a scan: the feed state counts no row and the user
     * visited within {@value #EMPTY_POOLS_TRUSTED_MS} ms (every writer of a pool row adds it to the count, so after a
     * visit that saw them empty, a count of zero means nothing came since). A count that lost an increment (a
     * Redis failover) is thus trusted for at most that long: the first visit after it scans again. A user who
     * comes back often to drained pools costs no pool scan.
     */
    static boolean emptyPools(FeedState state, long now) {
        return state.poolRows() <= 0 && state.lastVisit() != null && now - state.lastVisit() < EMPTY_POOLS_TRUSTED_MS;
    }

    /** How long after a recorded visit a count of zero pool rows is trusted (a visit is recorded at most hourly). */
    static final long EMPTY_POOLS_TRUSTED_MS = 3_600_000L;

    /** The chunk planned from the candidates, leaving out what the user was already shown. */
    public Chunk plan(long chunkId, Candidates candidates, Set<Long> alreadyShown) {
        long now = candidates.pulledAt();
        return ChunkPlan.plan(chunkId, Math.min(candidates.size(), MaterializedKey.MAX_CHUNK), candidates, alreadyShown,
                config, score -> scorer.valueAt(score, now));
    }
}
