package io.pinion.feed.explain;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

import io.pinion.feed.FeedSource;

/**
 * What every stage found; a stage that did not answer is null. The questions the verdict and the stage states ask
 * across stages are answered here once.
 */
record Findings(PinFinding pin, FollowFinding follow, RouteFinding route, PoolFinding pool, ShownFinding shown,
        JobsFinding jobs) {

    boolean deleted() {
        return pin != null && !pin.active();
    }

    boolean shownInFeed() {
        return shown != null && shown.shown();
    }

    Optional<FoundJob> unfinished(FoundJob.Purpose purpose) {
        return jobs == null ? Optional.empty() : jobs.unfinished(purpose);
    }

    Optional<FoundJob> failed(FoundJob.Purpose purpose) {
        return jobs == null ? Optional.empty() : jobs.failed(purpose);
    }

    /** The pool row worth most now, if the pin has one. */
    Optional<PoolFinding.Pooled> pooled() {
        return pool == null ? Optional.empty() : pool.best();
    }

    /**
     * What the pin would be worth now through the best source the user gets it by (any source when the follows are
     * unknown); null when it has a pool row or nothing is known.
     */
    PoolFinding.Prospect prospect() {
        if (pool == null || !pool.rows().isEmpty()) {
            return null;
        }
        List<FeedSource> sources = new ArrayList<>();
        if (follow == null || follow.receivesBoard()) {
            sources.add(FeedSource.FOLLOWING);
        }
        if (follow == null || !follow.followedInterests().isEmpty()) {
            sources.add(FeedSource.INTERESTS);
        }
        return pool.prospects().stream().filter(p -> sources.contains(p.source()))
                .max(Comparator.comparingDouble(PoolFinding.Prospect::worth)).orElse(null);
    }

    /** A pulled source the user reads holds the pin: its author's recent pins, or a followed interest's. */
    boolean pulledForUser() {
        if (follow == null || route == null) {
            return false;
        }
        return (follow.receivesBoard() && route.pulled())
                || follow.followedInterests().stream().anyMatch(route.interestsHolding()::contains);
    }

    /** The pin was pushed to the board's receivers, the user among them, and pushes do not skip the user. */
    boolean pushedToUser() {
        return follow != null && route != null && follow.receivesBoard() && !route.pulled() && !route.inactive();
    }

    /** The board started to reach the user after the pin was saved. */
    boolean followedAfterSaved() {
        Long since = follow == null ? null : follow.boardReachesSince();
        return since != null && pin != null && since > pin.created();
    }
}
