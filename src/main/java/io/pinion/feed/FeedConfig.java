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

    /**
     * A board whose receivers (its own followers and its owner's who did not unfollow it) are more than this is
     * pulled: its new pins go to the author's recent pins, which followers' content generators read, instead of into
     * every follower's pool. Interests are always pulled.
     */
    @WithDefault("10000")
    int pullThreshold();

    /** A user whose last home-feed visit is older than this gets nothing pushed, and is regenerated on return. */
    @WithDefault("14d")
    Duration inactiveAfter();

    /** Rows kept per pool (per user and source); the lowest scores leave first. */
    @WithDefault("1000")
    int poolMax();

    /**
     * How far back a visit pulls again behind the previous visit's pull, for pins whose index write was still under
     * way then (duplicates are dropped).
     */
    @WithDefault("5s")
    Duration pullOverlap();

    /** How far back the first pull of a user who never pulled reaches. */
    @WithDefault("7d")
    Duration pullHorizon();

    /** Most followed users and most followed boards a regeneration or an older-pins page reads from. */
    @WithDefault("500")
    int followedSourcesMax();

    /** Most pins per followed user or board that a regeneration puts into the pools. */
    @WithDefault("10")
    int regeneratePerSource();

    /** Major compactions of feed regions whose scans skip many deleted rows ({@code store.FeedCompactions}). */
    Compaction compaction();

    interface Compaction {

        /**
         * How often the regions' counters are read ({@code pinion.feed.compaction.check-interval}, read by the
         * scheduler).
         */
        @WithDefault("60s")
        Duration checkInterval();

        /**
         * Deleted rows a region's scans must have skipped since the last check (and more than they read) before it
         * is compacted; 0 turns the checks off.
         */
        @WithDefault("20000")
        long minSkippedRows();
    }

    /** What a read of the materialized feed takes beyond its page, for the session's next pages. */
    ReadAhead readAhead();

    interface ReadAhead {

        /**
         * Pages of the request's size read beyond the page, into this instance's window of the user's feed (at most
         * 300 entries); 0 turns read-ahead off. Next pages inside the window are answered from it.
         */
        @WithDefault("3")
        int pages();

        /** How long a window answers next pages: what it holds is at most this old. */
        @WithDefault("30s")
        Duration ttl();

        /** The most memory the windows of all users take (about 100 bytes an entry); past it the oldest leave. */
        @WithDefault("16777216")
        long maxBytes();
    }

    /** The per-pin, per-author and per-board delivery funnel ({@code feed.funnel}, docs/feed.md). */
    Funnel funnel();

    interface Funnel {

        /** Whether the funnel is also counted per pin, author and board (the global funnel always is). */
        @WithDefault("true")
        boolean perEntity();

        /**
         * How often the counts held in memory are added to Redis ({@code pinion.feed.funnel.flush-every}, read by the
         * scheduler): the per-entity funnel is this far behind.
         */
        @WithDefault("5s")
        Duration flushEvery();

        /**
         * The most memory the counts held between two flushes may take; past it a flush starts at once and counts
         * that find no room are dropped (and counted in {@code pinion_feed_funnel_entity_dropped_total}).
         */
        @WithDefault("16777216")
        long maxBytes();
    }
}
