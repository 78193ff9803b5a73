package io.pinion.feed.explain;

import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.pinion.failure.NotFound;
import io.pinion.failure.Outages;
import io.pinion.feed.FeedConfig;
import io.pinion.graph.GraphTargets;
import io.pinion.id.PinionId;
import io.smallrye.mutiny.Uni;

/**
 * Explains a pin's way to a user's home feed (docs/feed.md, "Explaining a delivery"). The user's existence and the
 * pin are read first (an unknown user or pin is a 404); then the follow, route, pool, shown and jobs stages are read
 * in parallel, each bounded by its own timeout, and a stage whose source fails says so while the others answer. The
 * verdict and where the path stopped are drawn from what the stages found ({@link ExplainVerdict}).
 */
@ApplicationScoped
public class FeedExplainer {

    private static final Logger LOG = Logger.getLogger(FeedExplainer.class);

    private final GraphTargets targets;
    private final PinStage pinStage;
    private final FollowStage followStage;
    private final RouteStage routeStage;
    private final PoolStage poolStage;
    private final ShownStage shownStage;
    private final JobsStage jobsStage;
    private final FeedConfig config;

    FeedExplainer(GraphTargets targets, PinStage pinStage, FollowStage followStage, RouteStage routeStage,
            PoolStage poolStage, ShownStage shownStage, JobsStage jobsStage, FeedConfig config) {
        this.targets = targets;
        this.pinStage = pinStage;
        this.followStage = followStage;
        this.routeStage = routeStage;
        this.poolStage = poolStage;
        this.shownStage = shownStage;
        this.jobsStage = jobsStage;
        this.config = config;
    }

    /** The explanation; fails with 404 {@code user_not_found} or {@code pin_not_found} for ids of nothing. */
    public Uni<FeedExplanation> explain(PinionId user, PinionId pin) {
        long now = System.currentTimeMillis();
        return Uni.combine().all().unis(knownUser(user), pinStage.read(pin)).with((known, read) -> read)
                .chain(pinRead -> stages(user.value(), pin.value(), pinRead, now))
                .map(reads -> explanation(user, pin, reads));
    }

    /** Every stage as read, in order. */
    private record Reads(StageRead<PinFinding> pin, StageRead<FollowFinding> follow, StageRead<RouteFinding> route,
            StageRead<PoolFinding> pool, StageRead<ShownFinding> shown, StageRead<JobsFinding> jobs) {

        List<StageRead<?>> all() {
            return List.of(pin, follow, route, pool, shown, jobs);
        }

        Findings findings() {
            return new Findings(pin.finding(), follow.finding(), route.finding(), pool.finding(), shown.finding(),
                    jobs.finding());
        }
    }

    /**
     * Fails with 404 when the user does not exist; when the user's shard does not answer, the explanation goes on
     * (the graph and the feed are read by id alone).
     */
    private Uni<Void> knownUser(PinionId user) {
        return targets.requireUser(user)
                .onFailure(failure -> !(failure instanceof NotFound)).recoverWithItem(failure -> {
                    LOG.debugf("feed explain: user %s not checked: %s", user, Outages.describe(failure));
                    return null;
                });
    }

    private Uni<Reads> stages(long user, long pin, StageRead<PinFinding> pinRead, long now) {
        PinFinding found = pinRead.finding();
        return Uni.combine()
                .all()
                .unis(
                        followStage.read(user, found),
                        routeStage.read(user, pin, found, now),
                        poolStage.read(user, pin, found, now),
                        shownStage.read(user, pin),
                        jobsStage.read(user, pin, found))
                .with((f, r, p, s, j) -> new Reads(pinRead, f, r, p, s, j));
    }

    private FeedExplanation explanation(PinionId user, PinionId pin, Reads reads) {
        Findings findings = reads.findings();
        ExplainVerdict verdict = ExplainVerdict.of(findings, config);
        List<ExplainStage> stages = reads.all().stream()
                .map(read -> read.render(StageStates.of(read, findings, verdict, config)))
                .toList();
        return new FeedExplanation(user.toString(), pin.toString(), verdict.verdict(),
                verdict.stoppedAt() == null ? null : verdict.stoppedAt().label(), verdict.summary(), stages);
    }
}
