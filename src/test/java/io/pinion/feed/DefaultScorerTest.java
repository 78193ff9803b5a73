package io.pinion.feed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The default score: deterministic, worth halving every half-life, sources ranked by weight, affinity lifting a
 * pin, and an order that does not depend on when pins were scored.
 */
class DefaultScorerTest {

    private static final long HOUR = 3_600_000;
    private static final long NOW = 1_795_000_000_000L;
    private final DefaultScorer scorer = new DefaultScorer(24 * HOUR, 1.0, 0.6, 0.4);

    private double worth(FeedSource source, long created, long affinity, long at) {
        return scorer.valueAt(scorer.score(new ScoringInput(source, created, at, affinity)), at);
    }

    @Test
    void aNewPinFromTheFollowingSourceWithoutAffinityIsWorthOneHundred() {
        assertEquals(100.0, worth(FeedSource.FOLLOWING, NOW, 0, NOW), 1e-6);
    }

    @Test
    void worthHalvesEveryHalfLife() {
        assertEquals(50.0, worth(FeedSource.FOLLOWING, NOW - 24 * HOUR, 0, NOW), 1e-6);
        assertEquals(25.0, worth(FeedSource.FOLLOWING, NOW - 48 * HOUR, 0, NOW), 1e-6);
        double score = scorer.score(new ScoringInput(FeedSource.FOLLOWING, NOW, NOW, 0));
        assertEquals(50.0, scorer.valueAt(score, NOW + 24 * HOUR), 1e-6, "the stored score ages without rescoring");
    }

    @Test
    void sourcesRankByWeightAndAffinityLiftsTheScore() {
        assertEquals(60.0, worth(FeedSource.RELATED, NOW, 0, NOW), 1e-6);
        assertEquals(40.0, worth(FeedSource.INTERESTS, NOW, 0, NOW), 1e-6);
        assertEquals(100 * (1 + Math.log1p(10)), worth(FeedSource.FOLLOWING, NOW, 10, NOW), 1e-6);
    }

    @Test
    void newerPinsRankHigherWhenEverWhereTheyWereScored() {
        double older = scorer.score(new ScoringInput(FeedSource.FOLLOWING, NOW - 1, NOW + 10 * HOUR, 0));
        double newer = scorer.score(new ScoringInput(FeedSource.FOLLOWING, NOW, NOW, 0));
        assertTrue(newer > older, "scored later or earlier makes no difference");
        double liked = scorer.score(new ScoringInput(FeedSource.FOLLOWING, NOW - 24 * HOUR, NOW, 1_000));
        assertTrue(liked > newer, "high affinity outweighs a day of age");
    }

    @Test
    void theSameInputAlwaysGivesTheSameScore() {
        ScoringInput input = new ScoringInput(FeedSource.RELATED, NOW - 7 * HOUR, NOW, 3);
        double first = scorer.score(input);
        for (int i = 0; i < 100; i++) {
            assertEquals(first, scorer.score(input));
        }
        assertTrue(Double.isFinite(
                scorer.score(new ScoringInput(FeedSource.INTERESTS, 0, Long.MAX_VALUE / 2, Long.MAX_VALUE))));
    }
}
