package io.pinion.feed.explain;

import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.feed.fanout.FanoutJob;
import io.pinion.feed.fanout.FeedJobs;
import io.pinion.feed.FeedSource;
import io.pinion.feed.fanout.PersistChunk;
import io.pinion.feed.fanout.PoolInsert;
import io.pinion.feed.fanout.PoolPurge;
import io.pinion.feed.PoolRow;
import io.pinion.graph.FollowEvent;
import io.pinion.graph.FollowEvents;
import io.pinion.queue.Job;

/**
 * Reads a feed job's body and says what it does for one user and one pin, if anything: the job lookups match bodies
 * by text, and this decides.
 */
@ApplicationScoped
class FeedJobBodies {

    private final FeedJobs jobs;

    FeedJobBodies(FeedJobs jobs) {
        this.jobs = jobs;
    }

    /** What the job does for the user and the pin; null when it does nothing for them or cannot be read. */
    FoundJob classify(Job job, long user, long pin, PinFinding found) {
        try {
            return switch (job.queue()) {
                case FeedJobs.FANOUT -> fanout(job, jobs.readFanout(job.body()));
                case FeedJobs.POOL_INSERT -> poolInsert(job, jobs.read(job.body(), PoolInsert.class), user);
                case FeedJobs.PURGE -> purge(job, jobs.read(job.body(), PoolPurge.class), user);
                case FeedJobs.PERSIST -> persist(job, jobs.read(job.body(), PersistChunk.class), user, pin);
                case FeedJobs.REGENERATE ->
                    new FoundJob(job, FoundJob.Purpose.REGENERATION, "regeneration of the user's pools");
                case FeedJobs.TRIM -> new FoundJob(job, FoundJob.Purpose.TRIM, "trim of the user's pools");
                case FollowEvents.QUEUE -> followEvent(job, jobs.read(job.body(), FollowEvent.class), user, found);
                default -> null;
            };
        } catch (IllegalArgumentException unreadable) {
            return null;
        }
    }

    private static FoundJob fanout(Job job, FanoutJob work) {
        if (work instanceof FanoutJob.InterestIndex index) {
            return index.removed()
                    ? purgePage(job, "first", FeedSource.INTERESTS)
                    : new FoundJob(
                            job, FoundJob.Purpose.DELIVERY, "index write into the recent pins of " + index.interest());
        }
        if (work instanceof FanoutJob.RelatedPurgePage page) {
            return purgePage(job, which(page), FeedSource.RELATED);
        }
        if (work instanceof FanoutJob.PurgePage page) {
            return purgePage(job, which(page), FeedSource.FOLLOWING);
        }
        if (work instanceof FanoutJob.Route route && route.purge()) {
            return purgePage(job, "first", FeedSource.FOLLOWING);
        }
        String which = work instanceof FanoutJob.PushPage page ? which(page) : "first";
        return new FoundJob(job, FoundJob.Purpose.DELIVERY, "fan-out page (" + which + ") of the board's receivers");
    }

    private static String which(FanoutJob.Paged page) {
        return page.cursor() == null ? "first" : "next";
    }

    private static FoundJob purgePage(Job job, String which, FeedSource source) {
        return new FoundJob(job, FoundJob.Purpose.PURGE, "purge fan-out page (" + which + ") of the " + source.label()
                + " source");
    }

    private static FoundJob poolInsert(Job job, PoolInsert insert, long user) {
        if (!insert.receivers().contains(Long.toString(user))) {
            return null;
        }
        return new FoundJob(job, FoundJob.Purpose.DELIVERY, "pool insert for " + insert.receivers().size()
                + " receivers, the user among them");
    }

    private static FoundJob purge(Job job, PoolPurge purge, long user) {
        if (!purge.users().contains(Long.toString(user))) {
            return null;
        }
        return new FoundJob(job, FoundJob.Purpose.PURGE, "purge from " + purge.users().size()
                + " users' pools and feeds, the user among them");
    }

    private static FoundJob persist(Job job, PersistChunk chunk, long user, long pin) {
        if (chunk.user() != user) {
            return null;
        }
        String persist = "persist of chunk " + chunk.chunkId();
        for (int i = 0; i < chunk.entries().size(); i++) {
            if (chunk.entries().get(i).pin() == pin) {
                return new FoundJob(
                        job, FoundJob.Purpose.PERSIST_SHOWN, persist + ", which showed the pin at position " + i);
            }
        }
        if (holds(chunk.carried(), pin)) {
            return new FoundJob(
                    job, FoundJob.Purpose.PERSIST_POOLS, persist + ", carrying the pulled pin into the pools");
        }
        if (holds(chunk.consumed(), pin)) {
            return new FoundJob(job, FoundJob.Purpose.PERSIST_POOLS, persist + ", removing the pin's pool row");
        }
        return null;
    }

    private static FoundJob followEvent(Job job, FollowEvent event, long user, PinFinding found) {
        if (found == null || !event.userId().equals(Long.toString(user))) {
            return null;
        }
        String target = event.target();
        boolean concernsPin = target.equals(Long.toString(found.author()))
                || target.equals(Long.toString(found.board()))
                || found.interests().contains(target);
        return concernsPin ? new FoundJob(job, FoundJob.Purpose.FOLLOW_EVENT, event.type() + " " + target) : null;
    }

    private static boolean holds(List<PoolRow> rows, long pin) {
        return rows != null && rows.stream().anyMatch(row -> row.pin() == pin);
    }
}
