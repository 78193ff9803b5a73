package io.pinion.feed;

/**
 * Whether a pin may reach a user's feed, by the rules every path applies alike: the content generator
 * ({@code read.ChunkPlan}), the pages past the materialized feed ({@code read.OlderPins}), the fan-out
 * ({@code fanout.FanoutWorker}) and
 * the explanation of one pin for one user ({@code io.pinion.feed.explain}). Each rule is written once, so an
 * explanation cannot drift from what the feed does.
 */
public final class DeliveryRules {

    /** A feed draws on the first this many interests a user follows. */
    public static final int MAX_INTERESTS = 100;

    private DeliveryRules() {
    }

    /** A pin never enters its author's own feed. */
    public static boolean ownPin(long user, long author) {
        return user == author;
    }

    /**
     * A candidate is worth showing when its worth now is at least the quality bar
     * ({@code pinion.feed.quality-threshold}); below it, it is dropped (a pool row is consumed, a pulled pin left out).
     */
    public static boolean worthShowing(double worth, double bar) {
        return worth >= bar;
    }
}
