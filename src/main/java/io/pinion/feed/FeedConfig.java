package io.pinion.feed;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * Settings of the home feed (docs/feed.md).
 */
@ConfigMapping(prefix = "pinion.feed")
public interface FeedConfig {

    /** The default scorer's recency half-life: a pin this old scores half of a new one. */
    @WithDefault("24h")
    Duration halfLife();

    /** Source weights of the default scorer. */
    @WithDefault("1.0")
    double followingWeight();

    @WithDefault("0.6")
    double relatedWeight();

    @WithDefault("0.4")
    double interestsWeight();

    /** Share of a chunk taken from each source (normalized; unused shares fall back to the other sources). */
    @WithDefault("0.60")
    double followingRate();

    @WithDefault("0.25")
    double relatedRate();

    @WithDefault("0.15")
    double interestsRate();

    /** Pins per new chunk after a visit whose chunk was generated. */
    @WithDefault("25")
    int chunkSize();

    /** Largest chunk, reached by doubling after visits whose generation failed. */
    @WithDefault("200")
    int maxChunkSize();

    /**
     * Pins worth less than this at the time of the visit ({@link FeedScorer#valueAt}; the default scorer's worth
     * is 100 for a new pin of a followed board) are dropped from the pools instead of shown.
     */
    @WithDefault("1.0")
    double qualityThreshold();

    /** Share of the candidates beyond what a chunk takes that is held back for a later visit. */
    @WithDefault("0.2")
    double holdBack();

    /** Entries kept in a user's materialized feed. */
    @WithDefault("1000")
    int materializedMax();

    /** Time the first page waits for the content generator before serving the materialized feed alone. */
    @WithDefault("150ms")
    Duration generatorBudget();

    /** Recent pins of a user or board copied into a new follower's pools. */
    @WithDefault("50")
    int backfill();

    /** Receivers per fan-out batch job. */
    @WithDefault("1000")
    int fanoutBatch();
}
