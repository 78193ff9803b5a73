package io.pinion.feed.funnel;

import java.time.Instant;
import java.util.List;

/**
 * What a pin's author may see of its delivery (creators' analytics): how many of their followers it was routed to,
 * how many feeds it entered, how often it competed for a place in a feed and how often it was shown, over a range.
 *
 * @param followers       followers the pin was routed to: paged receivers of a pushed pin, all receivers of a pulled
 *                        one (their feeds read it when they are built)
 * @param inactive        of those, followers skipped because they had not visited for a long time
 * @param delivered       feeds' pools the pin entered: pushed to followers, backfilled, related, regenerated
 * @param considered      times a feed being built considered the pin
 * @param shown           times it was shown on a first page of a home feed
 * @param shownOverTime   shown per bucket of {@code step} (non-empty buckets)
 */
public record PinReach(String pin, Instant from, Instant to, String step, long followers, long inactive,
        long delivered, long considered, long shown, List<FunnelView.Point> shownOverTime) {
}
