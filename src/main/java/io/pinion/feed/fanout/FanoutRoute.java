package io.pinion.feed.fanout;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.feed.FeedConfig;
import io.pinion.feed.FeedFunnel;
import io.pinion.feed.FunnelPin;
import io.pinion.feed.FeedSource;
import io.pinion.feed.store.PulledAuthors;
import io.pinion.graph.FollowQueries;
import io.pinion.graph.RecentPin;
import io.pinion.graph.RecentPins;
import io.smallrye.mutiny.Uni;

/**
 * Push or pull, decided per pin when it is saved: a board with more receivers than
 * {@code pinion.feed.pull-threshold} (its own followers plus its owner's who did not unfollow it, an exact count in
 * one round trip) is pulled. A pulled pin goes into its author's recent pins and the author into the registry of
 * pulled authors, and no receiver is paged; a pushed pin is paged to its receivers by {@code feed-fanout}. The
 * decision is made once per pin, so a board crossing the threshold in either direction neither loses nor duplicates
 * a pin: the ones before stay where they went, the ones after go the other way, and the content generator reads
 * both.
 */
@ApplicationScoped
public class FanoutRoute {

    private final FollowQueries queries;
    private final RecentPins recentPins;
    private final PulledAuthors pulledAuthors;
    private final FeedConfig config;
    private final FeedFunnel funnel;

    FanoutRoute(FollowQueries queries, RecentPins recentPins, PulledAuthors pulledAuthors, FeedConfig config,
            FeedFunnel funnel) {
        this.queries = queries;
        this.recentPins = recentPins;
        this.pulledAuthors = pulledAuthors;
        this.config = config;
        this.funnel = funnel;
    }

    /** How a board's pins travel now. */
    public enum Mode {
        /** Into the receivers' pools. */
        PUSHED,
        /** Into the author's recent pins, read by followers' content generators. */
        PULLED,
        /** Nowhere: the board has no receivers (a later follower is backfilled). */
        NOBODY
    }

    /**
     * How a board's pins travel now, and why.
     *
     * @param mode      push, pull or nobody
     * @param receivers the board's receivers counted for the decision
     */
    public record Decision(Mode mode, long receivers) {
    }

    public Uni<Mode> mode(long board, long owner) {
        return decide(board, owner).map(Decision::mode);
    }

    public Uni<Decision> decide(long board, long owner) {
        return queries.boardFollowers(board, owner)
                .map(receivers -> new Decision(
                        receivers > config.pullThreshold() ? Mode.PULLED : receivers == 0 ? Mode.NOBODY : Mode.PUSHED,
                        receivers));
    }

    /** A pin that reaches nobody (counted). */
    public Uni<Void> nobody(FunnelPin pin) {
        funnel.count(FeedFunnel.Stage.ROUTED, FeedSource.FOLLOWING, FeedFunnel.Reason.NOBODY, pin, 1);
        return Uni.createFrom().voidItem();
    }

    /**
     * Indexes a pulled pin for its author's followers; idempotent. Its receivers count in the funnel as skipped: none
     * is paged.
     */
    public Uni<Void> pull(RecentPin pin, long receivers) {
        return recentPins
                .add(recentPins.author(pin.author()), pin)
                .chain(() -> pulledAuthors.mark(pin.author(), pin.created()))
                .invoke(() -> {
                    FunnelPin counted = new FunnelPin(pin.pin(), pin.author(), pin.board());
                    funnel.count(FeedFunnel.Stage.ROUTED, FeedSource.FOLLOWING, FeedFunnel.Reason.PULLED, counted, 1);
                    funnel.count(FeedFunnel.Stage.SKIPPED, FeedSource.FOLLOWING, FeedFunnel.Reason.PULLED_AUTHOR,
                            counted, receivers);
                });
    }
}
