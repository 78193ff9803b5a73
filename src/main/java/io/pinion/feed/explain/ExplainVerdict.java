package io.pinion.feed.explain;

import static io.pinion.feed.explain.FeedExplanation.DROPPED;
import static io.pinion.feed.explain.FeedExplanation.NOT_DELIVERED;
import static io.pinion.feed.explain.FeedExplanation.PENDING;
import static io.pinion.feed.explain.FeedExplanation.SHOWN;

import java.util.Optional;

import io.pinion.feed.DeliveryRules;
import io.pinion.feed.FeedConfig;

/**
 * The verdict drawn from the findings, first rule that applies: a deleted pin is dropped; a pin in the materialized
 * feed, or in a chunk still being materialized, was shown; then the pool rows, the jobs on their way, the follows,
 * the worth against the quality bar, and the route (pulled, pushed, skipped) tell whether the pin is pending, was
 * dropped or is not delivered, and at which stage its path ends.
 *
 * @param verdict   {@code shown}, {@code pending}, {@code dropped} or {@code not_delivered}
 * @param stoppedAt where the path ends for now; null for a shown pin
 * @param summary   the verdict in one sentence, with the evidence that decided it
 */
record ExplainVerdict(String verdict, Stage stoppedAt, String summary) {

    static ExplainVerdict of(Findings f, FeedConfig config) {
        ExplainVerdict verdict = decide(f, config);
        if (f.shown() != null || verdict.verdict().equals(SHOWN) || verdict.stoppedAt() == Stage.PIN) {
            return verdict;
        }
        return new ExplainVerdict(verdict.verdict(), verdict.stoppedAt(), verdict.summary()
                + " (whether it was shown is not known: the shown stage did not answer)");
    }

    private static ExplainVerdict decide(Findings f, FeedConfig config) {
        double bar = config.qualityThreshold();
        if (f.deleted()) {
            return new ExplainVerdict(
                    DROPPED,
                    Stage.PIN,
                    "dropped: the pin is deleted, and every feed page drops it when" + " it hydrates the page");
        }
        if (f.shownInFeed()) {
            return new ExplainVerdict(SHOWN, null, "shown to the user " + f.shown().where());
        }
        Optional<FoundJob> persisting = f.unfinished(FoundJob.Purpose.PERSIST_SHOWN);
        if (persisting.isPresent()) {
            return new ExplainVerdict(SHOWN, null, "shown to the user on a first page; " + persisting.get().describe()
                    + " has not written it to the materialized feed yet");
        }
        if (f.follow() != null && f.follow().ownPin()) {
            return new ExplainVerdict(
                    NOT_DELIVERED,
                    Stage.FOLLOW,
                    "not delivered: the user is the pin's author, and a pin" + " never enters its author's feed");
        }
        Optional<PoolFinding.Pooled> pooled = f.pooled();
        if (pooled.isPresent()) {
            PoolFinding.Pooled row = pooled.get();
            String where = "in the user's " + row.entry().key().source().label() + " pool, worth "
                    + Evidence.rounded(row.worth()) + " now";
            return DeliveryRules.worthShowing(row.worth(), bar)
                    ? new ExplainVerdict(
                            PENDING,
                            Stage.SHOWN,
                            "pending: waiting " + where + " (quality bar " + bar + ") with "
                                    + (row.standing().capped() ? "at least " : "")
                                    + row.standing().above()
                                    + " rows ranked above it; a visit offers it")
                    : new ExplainVerdict(
                            DROPPED,
                            Stage.POOL,
                            "dropped: " + where + ", below the quality bar " + bar + "; the next visit removes it");
        }
        Optional<FoundJob> delivering = f.unfinished(FoundJob.Purpose.DELIVERY);
        if (delivering.isPresent() && (f.follow() == null || f.follow().reaches())) {
            return new ExplainVerdict(
                    PENDING, Stage.JOBS, "pending: " + delivering.get().describe() + " has not delivered" + " it yet");
        }
        if (f.follow() != null && !f.follow().reaches()) {
            String how = f.follow().reach() == FollowFinding.Reach.UNFOLLOWED_BOARD
                    ? "follows the author but unfollowed this board"
                    : "follows neither the author, the board nor an interest of the pin";
            return new ExplainVerdict(
                    NOT_DELIVERED,
                    Stage.FOLLOW,
                    "not delivered: the user " + how + ", so the pin cannot"
                            + " reach them by following (it might still come as related)");
        }
        Optional<FoundJob> failed = f.failed(FoundJob.Purpose.DELIVERY);
        if (failed.isPresent()) {
            return new ExplainVerdict(
                    NOT_DELIVERED, Stage.JOBS, "not delivered: " + failed.get().describe() + " failed");
        }
        PoolFinding.Prospect prospect = f.prospect();
        if (prospect != null && !DeliveryRules.worthShowing(prospect.worth(), bar)) {
            return new ExplainVerdict(DROPPED, Stage.POOL, "dropped: worth " + Evidence.rounded(prospect.worth())
                    + " now through " + prospect.source().label() + ", below the quality bar " + bar
                    + "; the content generator leaves it out");
        }
        return f.follow() == null || f.route() == null ? undetermined(f) : route(f, config);
    }

    /** The user follows a way for the pin and it is worth showing, yet it is neither pooled nor shown. */
    private static ExplainVerdict route(Findings f, FeedConfig config) {
        Optional<FoundJob> follow = f.unfinished(FoundJob.Purpose.FOLLOW_EVENT);
        if (follow.isPresent()) {
            return new ExplainVerdict(PENDING, Stage.JOBS, "pending: " + follow.get().describe() + " may bring it");
        }
        String beforeFollow = "it was saved before the user followed its board, and a follow backfills only the newest "
                + config.backfill() + " pins";
        if (f.pulledForUser()) {
            if (f.route().nextPullReads()) {
                String from = f.follow().receivesBoard() && f.route().pulled() ? "its author's recent pins"
                        : "the recent pins of its interests";
                return new ExplainVerdict(PENDING, Stage.SHOWN, "pending: pulled; the user's next visit reads it from "
                        + from + " (it reads pins created after " + Evidence.time(f.route().nextPullFrom()) + ")");
            }
            return new ExplainVerdict(
                    NOT_DELIVERED,
                    Stage.POOL,
                    "not delivered: pulled, but the user's pulls have passed" + " it and it is neither pooled nor shown"
                            + (f.followedAfterSaved() ? ": " + beforeFollow : ""));
        }
        if (f.follow().receivesBoard() && !f.route().pulled() && f.route().inactive()) {
            Optional<FoundJob> regeneration = f.unfinished(FoundJob.Purpose.REGENERATION);
            return regeneration.isPresent()
                    ? new ExplainVerdict(
                            PENDING,
                            Stage.JOBS,
                            "pending: " + regeneration.get().describe() + " may bring it")
                    : new ExplainVerdict(
                            NOT_DELIVERED,
                            Stage.ROUTE,
                            "not delivered: pushed, and pushes skip the user,"
                                    + " inactive since "
                                    + Evidence.time(f.route().user().lastVisit())
                                    + "; their next visit regenerates their pools");
        }
        if (f.pushedToUser()) {
            return f.followedAfterSaved()
                    ? new ExplainVerdict(NOT_DELIVERED, Stage.ROUTE, "not delivered: pushed, but " + beforeFollow)
                    : new ExplainVerdict(
                            NOT_DELIVERED,
                            Stage.POOL,
                            "not delivered: pushed to the board's receivers, but it has no pool row and was not shown:"
                                    + " its row was consumed or removed (a trim, an unfollow)");
        }
        return new ExplainVerdict(
                NOT_DELIVERED,
                Stage.ROUTE,
                "not delivered: neither the author's recent pins nor those"
                        + " of the interests the user follows hold it (each keeps only its newest pins)");
    }

    /** A stage the verdict needs did not answer: the first one on the path is where the explanation stops. */
    private static ExplainVerdict undetermined(Findings f) {
        Stage missing = f.pin() == null ? Stage.PIN : f.follow() == null ? Stage.FOLLOW : Stage.ROUTE;
        return new ExplainVerdict(
                NOT_DELIVERED,
                missing,
                "not shown, and the " + missing.label() + " stage did not answer,"
                        + " so where the path ends is not known");
    }
}
