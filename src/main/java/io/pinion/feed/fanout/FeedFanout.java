package io.pinion.feed.fanout;

import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.pinion.failure.Outages;
import io.pinion.feed.FeedFunnel;
import io.pinion.feed.FunnelPin;
import io.pinion.feed.FeedSource;
import io.pinion.graph.RecentPin;
import io.pinion.graph.RecentPins;
import io.pinion.id.PinionId;
import io.pinion.pins.PinEvents;
import io.smallrye.mutiny.Uni;

/**
 * What the feed does when a pin is saved to a board or deleted, called by the request after the pin's transaction.
 * A new pin goes into the recent pins of each of its interests (interests are always pulled) and, following
 * {@link FanoutRoute}, either into its author's recent pins (pulled) or out to its receivers' pools through a
 * {@code feed-fanout} job (pushed). Each step that cannot be done in the request becomes a {@code feed-fanout} job
 * that does it with retries, so the pin reaches feeds either way; the request itself never fails because of it.
 */
@ApplicationScoped
public class FeedFanout implements PinEvents {

    private static final Logger LOG = Logger.getLogger(FeedFanout.class);

    private final FeedJobs jobs;
    private final FanoutRoute route;
    private final RecentPins recentPins;
    private final FeedFunnel funnel;

    FeedFanout(FeedJobs jobs, FanoutRoute route, RecentPins recentPins, FeedFunnel funnel) {
        this.jobs = jobs;
        this.route = route;
        this.recentPins = recentPins;
        this.funnel = funnel;
    }

    /**
     * After a user liked or saved a pin: a {@code feed-related} job puts a few recent pins of that pin's board into
     * the user's related pool. A failure is logged; the like or save itself succeeded.
     */
    @Override
    public Uni<Void> related(PinionId user, PinionId pin) {
        return logged(jobs.enqueue(FeedJobs.RELATED, List.of(new RelatedPins(user.toString(), pin.toString()))),
                "related pins of " + pin + " for user " + user);
    }

    /** A pin was saved to a board: index it for its interests, then pull or push it. */
    @Override
    public Uni<Void> pinAdded(PinionId pin, PinionId board, PinionId author, long created, List<String> interests) {
        RecentPin recent = new RecentPin(pin.value(), board.value(), author.value(), created);
        FanoutJob.Route following = new FanoutJob.Route(pin.toString(), board.toString(), author.toString(), created,
                System.currentTimeMillis(), false);
        FunnelPin counted = new FunnelPin(pin.value(), author.value(), board.value());
        funnel.count(FeedFunnel.Stage.CREATED, null, FeedFunnel.Reason.NONE, counted, 1);
        List<Uni<Void>> steps = new ArrayList<>();
        steps.add(route.decide(board.value(), author.value())
                .chain(decision -> switch (decision.mode()) {
                    case PULLED -> route.pull(recent, decision.receivers());
                    case PUSHED -> jobs.enqueue(FeedJobs.FANOUT, List.of(following.firstPage()));
                    case NOBODY -> route.nobody(counted);
                })
                .onFailure().recoverWithUni(failure -> jobs.enqueue(FeedJobs.FANOUT, List.of(following))));
        for (String interest : interests) {
            steps.add(recentPins
                    .add(recentPins.interest(interest), recent)
                    .invoke(() -> funnel.count(
                            FeedFunnel.Stage.ROUTED, FeedSource.INTERESTS, FeedFunnel.Reason.PULLED, counted, 1))
                    .onFailure()
                    .recoverWithUni(failure -> jobs.enqueue(
                            FeedJobs.FANOUT, List.of(interestIndex(pin, board, author, created, interest, false)))));
        }
        return logged(Uni.join().all(steps).andCollectFailures().replaceWithVoid(), "fan-out of pin " + pin);
    }

    /**
     * A pin was deleted (feeds already drop it on read): it leaves its author's and its interests' recent pins, and
     * if its board is pushed, the pools and materialized feeds of the board's receivers, a page at a time; it also
     * leaves the related pools of users who took its board's pins. Pulled pins carried into a pool leave it when the
     * content generator next meets them.
     */
    @Override
    public Uni<Void> pinDeleted(PinionId pin, PinionId board, PinionId author, List<String> interests) {
        RecentPin recent = new RecentPin(pin.value(), board.value(), author.value(), 0);
        FanoutJob.Route following = new FanoutJob.Route(pin.toString(), board.toString(), author.toString(), 0, 0,
                true);
        List<Uni<Void>> steps = new ArrayList<>();
        steps.add(recentPins.remove(recentPins.author(author.value()), recent)
                .chain(() -> route.mode(board.value(), author.value()))
                .chain(mode -> mode != FanoutRoute.Mode.PUSHED ? Uni.createFrom().voidItem()
                        : jobs.enqueue(FeedJobs.FANOUT, List.of(following.firstPurgePage())))
                .onFailure().recoverWithUni(failure -> jobs.enqueue(FeedJobs.FANOUT, List.of(following))));
        steps.add(jobs.enqueue(FeedJobs.FANOUT, List.of(new FanoutJob.RelatedPurgePage(pin.toString(), board.toString(),
                author.toString(), null))));
        for (String interest : interests) {
            steps.add(recentPins.remove(recentPins.interest(interest), recent)
                    .onFailure().recoverWithUni(failure -> jobs.enqueue(FeedJobs.FANOUT,
                            List.of(interestIndex(pin, board, author, 0, interest, true)))));
        }
        return logged(Uni.join().all(steps).andCollectFailures().replaceWithVoid(), "purge of pin " + pin);
    }

    /** The interest's recent pins, written by a job when the request could not. */
    private static FanoutJob.InterestIndex interestIndex(PinionId pin, PinionId board, PinionId author, long created,
            String interest, boolean removed) {
        return new FanoutJob.InterestIndex(pin.toString(), board.toString(), author.toString(), created, interest,
                removed);
    }

    private static Uni<Void> logged(Uni<Void> work, String what) {
        return work.onFailure().recoverWithItem(failure -> {
            LOG.warnf("%s not done nor enqueued: %s", what, Outages.describe(failure));
            return null;
        });
    }
}
