package io.pinion.graph;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * Settings of the follower graph.
 */
@ConfigMapping(prefix = "pinion.graph")
public interface GraphConfig {

    /** Longest wait for one Redis round trip before the request gets a 503. */
    @WithDefault("1s")
    Duration commandTimeout();

    /** How often each instance looks for relationships whose two sides may disagree. */
    @WithDefault("5s")
    Duration sweepInterval();

    /** A relationship change older than this whose sides were never confirmed equal is repaired by the sweep. */
    @WithDefault("10s")
    Duration sweepAge();

    /**
     * How long each side's write of a relationship stays in its shard's journal ({@code g:{vs}:journal}): a Redis
     * failover within that time finds the relationships whose other side may have been lost with the old master.
     */
    @WithDefault("10m")
    Duration journalWindow();

    /**
     * After a Redis failover, the relationships journaled within this long before it was seen are synced again (the
     * old master may have acknowledged writes its replica never got: Sentinel's detection time plus replication lag).
     */
    @WithDefault("2m")
    Duration failoverLookback();

    /** Slots of the in-memory set of users known to exist (8 bytes each; users are never removed). */
    @WithDefault("1048576")
    int knownUsersCacheSize();

    /** Entries of the in-memory cache of board owners (about 40 bytes each; a board's owner never changes). */
    @WithDefault("262144")
    int boardOwnersCacheSize();

    /** Most owner followers one page of a board's followers looks at while skipping the board's unfollowers. */
    @WithDefault("5000")
    int scanBudget();

    /**
     * Most recent pins kept per interest for backfilling the interest's new followers (at least the feed's backfill).
     */
    @WithDefault("200")
    int interestRecentPins();

    /** Most recent pins kept per pulled author, which the home feed pulls from at read time. */
    @WithDefault("200")
    int authorRecentPins();

    /** Whether follow changes emit feed jobs (queue {@code feed-follow-events}). */
    @WithDefault("true")
    boolean feedEvents();
}
