package io.pinion.feed.explain;

import java.util.Locale;
import java.util.Map;

import io.pinion.queue.Job;

/**
 * A feed job bearing on the pin's way to the user, and what it does.
 *
 * @param job     the job as stored
 * @param purpose what it does for the pin and the user
 * @param kind    the same in words, e.g. {@code fan-out page (first) of the following source}
 */
record FoundJob(Job job, Purpose purpose, String kind) {

    /** What a job does for the pin and the user. */
    enum Purpose {
        /** Brings the pin to its receivers: a fan-out page, a pool insert for the user, an interest index write. */
        DELIVERY,
        /** Removes the deleted pin: a purge fan-out page, a purge of the user's pools and feed. */
        PURGE,
        /** Materializes a chunk that showed the pin to the user. */
        PERSIST_SHOWN,
        /** Moves the pin into or out of the user's pools after a visit (carried or consumed). */
        PERSIST_POOLS,
        /** Regenerates the pools of the user, back after being inactive. */
        REGENERATION,
        /** Trims the user's pools to their bound. */
        TRIM,
        /** A follow of the pin's author, board or interest by the user: its backfill, or an unfollow's removal. */
        FOLLOW_EVENT
    }

    boolean unfinished() {
        return !job.state().finished();
    }

    /** "feed-fanout job 4512… (pending, attempt 1 of 1000)". */
    String describe() {
        return job.queue() + " job " + job.id() + " (" + kind + "; " + state() + ", attempt " + job.attemptsMade()
                + " of " + job.attemptsAllowed() + ")";
    }

    String state() {
        return job.state().name().toLowerCase(Locale.ROOT);
    }

    Map<String, Object> evidence() {
        return new Evidence()
                .put("id", job.id().toString())
                .put("queue", job.queue())
                .put("state", state())
                .put("kind", kind)
                .put("attempts", job.attemptsMade())
                .put("attemptsAllowed", job.attemptsAllowed())
                .put("createdAt", Evidence.time(job.createdAt()))
                .put("updatedAt", Evidence.time(job.updatedAt()))
                .put("runAfter", Evidence.time(job.runAfter()))
                .map();
    }
}
