package io.pinion.feed;

import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.pinion.id.PinionId;
import io.pinion.web.BackendFailures;
import io.smallrye.mutiny.Uni;

/**
 * Starts the fan-out of a pin saved to a board: one {@code feed-fanout} job for the board's receivers (the
 * following source) and one per interest the pin is tagged with (the interests source).
 */
@ApplicationScoped
public class FeedFanout {

    private static final Logger LOG = Logger.getLogger(FeedFanout.class);

    private final FeedJobs jobs;

    FeedFanout(FeedJobs jobs) {
        this.jobs = jobs;
    }

    /**
     * After a user liked or saved a pin: a {@code feed-related} job puts a few recent pins of that pin's board into
     * the user's related pool. A failure is logged; the like or save itself succeeded.
     */
    public Uni<Void> related(PinionId user, PinionId pin) {
        return jobs.enqueue(FeedJobs.RELATED, List.of(new RelatedPins(user.toString(), pin.toString())))
                .onFailure().recoverWithItem(failure -> {
                    LOG.warnf("related pins of %s for user %s not enqueued: %s", pin, user, BackendFailures.describe(failure));
                    return null;
                });
    }

    /**
     * Enqueues the fan-out. The pin is already stored, so a failure here is logged and the pin reaches feeds only
     * through later backfills; the request that created it still succeeds.
     */
    public Uni<Void> pinAdded(PinionId pin, PinionId board, PinionId author, long created, List<String> interests) {
        return start(pin, board, author, created, System.currentTimeMillis(), interests, false, "fan-out");
    }

    /**
     * After a pin was deleted (feeds already drop it on read): pages through the same receivers as its fan-out and
     * purges it from their pools and materialized feeds. Related pools, which are not indexed by pin, shed it when
     * the content generator next consumes it. A failure is logged; the delete itself succeeded.
     */
    public Uni<Void> pinDeleted(PinionId pin, PinionId board, PinionId author, List<String> interests) {
        return start(pin, board, author, 0, 0, interests, true, "purge");
    }

    /** One first page for the board's receivers (following) and one per interest (interests). */
    private Uni<Void> start(PinionId pin, PinionId board, PinionId author, long created, long scoredAt,
            List<String> interests, boolean purge, String what) {
        List<FanoutPage> pages = new ArrayList<>();
        pages.add(new FanoutPage(pin.toString(), board.toString(), author.toString(), created, scoredAt,
                FeedSource.FOLLOWING.label(), null, null, purge));
        for (String interest : interests) {
            pages.add(new FanoutPage(pin.toString(), board.toString(), author.toString(), created, scoredAt,
                    FeedSource.INTERESTS.label(), interest, null, purge));
        }
        return jobs.enqueue(FeedJobs.FANOUT, pages)
                .onFailure().recoverWithItem(failure -> {
                    LOG.warnf("%s of pin %s not enqueued: %s", what, pin, BackendFailures.describe(failure));
                    return null;
                });
    }
}
