package io.pinion.feed.explain;

import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.feed.store.Affinity;
import io.pinion.feed.FeedConfig;
import io.pinion.feed.FeedScorer;
import io.pinion.feed.FeedSource;
import io.pinion.feed.PoolEntry;
import io.pinion.feed.store.PoolStore;
import io.pinion.feed.ScoringInput;
import io.smallrye.mutiny.Uni;

/**
 * Stage {@code pool}: one get of the pin's index row in the user's pools, then, per row, one bounded scan of row keys
 * for its rank; for a pin with no row, the user's affinity for the author (one Redis read) to score it as the
 * content generator would.
 */
@ApplicationScoped
class PoolStage {

    private final PoolStore pools;
    private final Affinity affinity;
    private final FeedScorer scorer;
    private final FeedConfig config;
    private final SourceNames names;

    PoolStage(PoolStore pools, Affinity affinity, FeedScorer scorer, FeedConfig config, SourceNames names) {
        this.pools = pools;
        this.affinity = affinity;
        this.scorer = scorer;
        this.config = config;
        this.names = names;
    }

    /** The pin's pool rows and their ranks, or its worth if scored now; unavailable when the pin was not read. */
    Uni<StageRead<PoolFinding>> read(long user, long pin, PinFinding found, long now) {
        if (found == null) {
            return StageRead.withoutPin(Stage.POOL, names.pools());
        }
        int bound = 2 * config.poolMax();
        Uni<PoolFinding> pool = pools.pooled(user, found.author(), found.board(), pin)
                .chain(rows -> rows.isEmpty() ? prospects(user, found, now, bound) : ranked(rows, now, bound));
        return StageRead.bounded(Stage.POOL, names.pools(), pool);
    }

    /** Each row's rank in its pool (the index row says which pools hold the pin), counted up to the bound. */
    private Uni<PoolFinding> ranked(List<PoolEntry> rows, long now, int bound) {
        List<Uni<PoolFinding.Pooled>> standings = rows.stream()
                .map(row -> pools.standing(row.key(), bound)
                        .map(standing -> new PoolFinding.Pooled(row, scorer.valueAt(row.key().score(), now), standing)))
                .toList();
        return Uni.join().all(standings).andFailFast()
                .map(pooled -> new PoolFinding(pooled, 0, List.of(), config.qualityThreshold(), bound));
    }

    /** What the pin would score for the user now through the sources it can come by, with their affinity. */
    private Uni<PoolFinding> prospects(long user, PinFinding found, long now, int bound) {
        return affinity.of(List.of(user), found.author()).map(counts -> {
            long known = counts.getOrDefault(user, 0L);
            List<PoolFinding.Prospect> prospects = new ArrayList<>();
            prospects.add(prospect(FeedSource.FOLLOWING, found, known, now));
            if (!found.interests().isEmpty()) {
                prospects.add(prospect(FeedSource.INTERESTS, found, known, now));
            }
            return new PoolFinding(List.of(), known, prospects, config.qualityThreshold(), bound);
        });
    }

    private PoolFinding.Prospect prospect(FeedSource source, PinFinding found, long affinity, long now) {
        double score = scorer.score(new ScoringInput(source, found.created(), now, affinity));
        return new PoolFinding.Prospect(source, score, scorer.valueAt(score, now));
    }
}
