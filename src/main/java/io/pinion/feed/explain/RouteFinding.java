package io.pinion.feed.explain;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.pinion.feed.fanout.FanoutRoute;
import io.pinion.feed.FeedConfig;
import io.pinion.feed.FeedState;
import io.pinion.graph.RecentPins;

/**
 * How the pin travels: pushed into its board's receivers' pools, or pulled at read time from its author's recent
 * pins (a board above {@code pinion.feed.pull-threshold} receivers) and, always, from its interests' recent pins;
 * and whether the user is one pushes skip (inactive) and what their next visit pulls.
 *
 * @param decision       how the board's pins travel now, with its receivers counted (the pin itself went the way
 *                       decided with the count when the pin
 *                       was saved)
 * @param authorPulledAt creation time of the author's newest pulled pin in the registry of pulled authors, or null
 * @param authorPins     whether the author's recent pins hold the pin
 * @param interestPins   per interest of the pin, whether its recent pins hold it
 * @param user           the user's feed state
 * @param pinCreated     when the pin was created (ms)
 * @param now            when the explanation was asked for (ms)
 * @param config         the feed's settings (pull threshold, inactivity, pull window)
 */
record RouteFinding(
        FanoutRoute.Decision decision,
        Long authorPulledAt,
        Indexed authorPins,
        Map<String, Indexed> interestPins,
        FeedState user,
        long pinCreated,
        long now,
        FeedConfig config)
        implements Finding {

    /** A recent-pins index as read: whether it holds the pin, its size, and how many pins it keeps. */
    record Indexed(RecentPins.Presence presence, int keeps) {

        Map<String, Object> evidence() {
            return new Evidence()
                    .put("holdsPin", presence.holds())
                    .put("size", presence.size())
                    .put("keeps", keeps)
                    .map();
        }
    }

    /** How the board's new pins would go now: {@code pushed}, {@code pulled} or {@code nobody}. */
    String modeNow() {
        return decision.mode().name().toLowerCase(Locale.ROOT);
    }

    /** How the pin went to its board's receivers. */
    enum Route {
        /** In its author's recent pins, which followers' visits read. */
        PULLED,
        /** Into the receivers' pools (it is not in its author's recent pins). */
        PUSHED,
        /** Nowhere: nobody receives the board (a later follower is backfilled). */
        NONE;

        String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    Route route() {
        return pulled() ? Route.PULLED : decision.receivers() == 0 ? Route.NONE : Route.PUSHED;
    }

    /** The pin was pulled for its board's receivers: it is in its author's recent pins. */
    boolean pulled() {
        return authorPins.presence().holds();
    }

    /** The interests whose recent pins hold the pin. */
    List<String> interestsHolding() {
        return interestPins.entrySet().stream()
                .filter(e -> e.getValue().presence().holds())
                .map(Map.Entry::getKey)
                .toList();
    }

    /** Pushes skip the user: their last recorded visit is older than {@code pinion.feed.inactive-after}. */
    boolean inactive() {
        return user.inactive(now, config.inactiveAfter().toMillis());
    }

    /**
     * What the user's next visit pulls from: pins created after their last pull less the overlap, at most the pull
     * horizon back (the content generator's window).
     */
    long nextPullFrom() {
        long horizon = now - config.pullHorizon().toMillis();
        return user.pulledUntil() == null ? horizon
                : Math.max(horizon, user.pulledUntil() - config.pullOverlap().toMillis());
    }

    /** The user's next visit pulls the pin from a source that holds it. */
    boolean nextPullReads() {
        return pinCreated > nextPullFrom();
    }

    @Override
    public String summary() {
        long receivers = decision.receivers();
        String receiversNow = "the board has " + receivers + (receivers == 1 ? " receiver" : " receivers")
                + " now (pull" + " threshold " + config.pullThreshold() + ")";
        String following = switch (route()) {
            case PULLED -> "pulled: in the author's recent pins; " + receiversNow;
            case PUSHED -> "pushed (not in the author's recent pins); " + receiversNow;
            case NONE -> "not in the author's recent pins, and nobody receives the board now";
        };
        List<String> holding = interestsHolding();
        String interests = holding.isEmpty() ? "" : "; the recent pins of its interests " + holding + " hold it";
        String visit = user.lastVisit() == null ? "has no recorded visit (counts as active)"
                : inactive() ? "is inactive since " + Evidence.time(user.lastVisit()) + ": pushes skip them"
                : "is active (last visit " + Evidence.time(user.lastVisit()) + ")";
        return following + interests + "; the user " + visit;
    }

    @Override
    public Map<String, Object> evidence() {
        Map<String, Object> interests = new LinkedHashMap<>();
        interestPins.forEach((name, index) -> interests.put(name, index.evidence()));
        return new Evidence()
                .put("route", route().label())
                .put("boardReceiversNow", decision.receivers())
                .put("pullThreshold", config.pullThreshold())
                .put("modeNow", modeNow())
                .put("authorInPullRegistry", authorPulledAt != null)
                .put("authorNewestPulledAt", Evidence.time(authorPulledAt))
                .put("authorRecentPins", authorPins.evidence())
                .put("interestRecentPins", interests)
                .put("userLastVisit", Evidence.time(user.lastVisit()))
                .put("userInactive", inactive())
                .put("inactiveAfter", config.inactiveAfter().toString())
                .put("userPulledUntil", Evidence.time(user.pulledUntil()))
                .put("nextPullFrom", Evidence.time(nextPullFrom()))
                .map();
    }
}
