package io.pinion.feed.fanout;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.pinion.failure.Outages;
import io.pinion.feed.FeedConfig;
import io.pinion.feed.store.FeedStates;
import io.smallrye.mutiny.Uni;

/**
 * Keeps each user's pools bounded: every writer learns the pools' new approximate size from the user's feed state,
 * and once it is more than a tenth above {@code pinion.feed.pool-max} (or below zero, which only a double count
 * makes), a {@code feed-trim} job (one per user at a time) deletes the lowest-scored rows and records the exact size.
 */
@ApplicationScoped
public class PoolCap {

    private static final Logger LOG = Logger.getLogger(PoolCap.class);

    private final FeedJobs jobs;
    private final FeedStates states;
    private final FeedConfig config;

    PoolCap(FeedJobs jobs, FeedStates states, FeedConfig config) {
        this.jobs = jobs;
        this.states = states;
        this.config = config;
    }

    /**
     * The user's pools gained (or lost) {@code rows} rows: counts them and asks for a trim if needed. The count only
     * steers trims, so a failure is only logged.
     */
    public Uni<Void> changed(long user, int rows) {
        if (rows == 0) {
            return Uni.createFrom().voidItem();
        }
        return states.poolRowsChanged(user, rows)
                .chain(now -> check(user, now))
                .onFailure().recoverWithItem(failure -> {
                    LOG.debugf("pool size of user %d not counted: %s", user, Outages.describe(failure));
                    return null;
                });
    }

    /**
     * Whether pools of about {@code rows} rows need a trim: past the cap by a tenth, or counted below zero (rows that
     * two visits consumed before either chunk was persisted are subtracted twice; the trim records the exact size).
     */
    boolean over(long rows) {
        return rows < 0 || rows > config.poolMax() + Math.max(10, config.poolMax() / 10);
    }

    /** Enqueues a trim if the user's pools, now about {@code rows} rows, need one; a failure is only logged. */
    public Uni<Void> check(long user, long rows) {
        if (!over(rows)) {
            return Uni.createFrom().voidItem();
        }
        return jobs.enqueueOnce(FeedJobs.TRIM, new PoolTrim(user), "trim:" + user)
                .onFailure().recoverWithItem(failure -> {
                    LOG.debugf("trim of user %d's pools not enqueued: %s", user, Outages.describe(failure));
                    return null;
                });
    }
}
