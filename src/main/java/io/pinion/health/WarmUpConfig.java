package io.pinion.health;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * The warm-up an instance runs after it starts and before it reports ready ({@link WarmUp}).
 */
@ConfigMapping(prefix = "pinion.warm-up")
public interface WarmUpConfig {

    /** Run the warm-up at start. */
    @WithDefault("true")
    boolean enabled();

    /** Upper bound of the warm-up: it ends after this long or after {@link #requests()}, whichever comes first. */
    @WithDefault("20s")
    Duration duration();

    /** Requests the warm-up sends at most, the rounds of the features' tasks ({@link WarmUpTask}) counted in. */
    @WithDefault("20000")
    int requests();

    /** Requests in flight at once. */
    @WithDefault("8")
    int concurrency();

    /**
     * Rounds in flight at once of each feature's warm-up task ({@link WarmUpTask}: the home feed's preview of a
     * sampled user's first page and older pins, the job queue's enqueue, dequeue and ack), besides the requests.
     */
    @WithDefault("2")
    int taskConcurrency();

    /**
     * Shards sampled per MySQL host for the ids the warm-up reads: each statement is prepared per shard database and
     * connection, so more shards leave fewer statements for the first users to prepare.
     */
    @WithDefault("32")
    int shardsPerHost();

    /**
     * Rounds of the writes users make most (follows, pins, likes, saves, deletes), made by the warm-up's own two
     * accounts on their own boards: the first writes after a start pay for class loading, first calls and scripts, and
     * without these rounds they stalled the first seconds of reads beside them. Bounded, so that the feed's jobs they
     * set off are done before the instance is ready; 0 for none.
     */
    @WithDefault("25")
    int writeRounds();

    /** Ids of each object type sampled per shard. */
    @WithDefault("4")
    int idsPerShard();

    /**
     * Short-lived tokens the warm-up signs for sampled users, for their read-only signed-in requests (which of these
     * users and boards do I follow): each is verified once, as the first request of every new client is.
     */
    @WithDefault("500")
    int tokens();
}
