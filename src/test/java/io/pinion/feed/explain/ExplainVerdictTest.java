package io.pinion.feed.explain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.pinion.feed.FeedConfig;
import io.pinion.feed.FeedEntry;
import io.pinion.feed.fanout.FanoutRoute;
import io.pinion.feed.FeedSource;
import io.pinion.feed.FeedState;
import io.pinion.feed.store.MaterializedFeed;
import io.pinion.feed.PoolEntry;
import io.pinion.feed.PoolKey;
import io.pinion.feed.store.PoolStore;
import io.pinion.graph.BoardRelation;
import io.pinion.graph.RecentPins;
import io.pinion.id.ObjectType;
import io.pinion.id.PinionId;
import io.pinion.pins.PinData;
import io.pinion.queue.Job;
import io.pinion.queue.JobState;
import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.SmallRyeConfigBuilder;

/**
 * The verdict rules on findings built by hand, for the paths the API tests cannot reach cheaply: inactive users,
 * follows newer than the pin, failed and pending jobs, stages that did not answer. Quality bar 50.
 */
class ExplainVerdictTest {

    private static final long NOW = 1_800_000_000_000L;
    private static final long DAY = 86_400_000L;
    private static final FeedConfig CONFIG = new SmallRyeConfigBuilder().withMapping(FeedConfig.class)
            .withConverter(Duration.class, 100, new DurationConverter())
            .withDefaultValue("pinion.feed.quality-threshold", "50").build().getConfigMapping(FeedConfig.class);
    private static final PinionId AUTHOR = PinionId.of(1, ObjectType.USER, 1);
    private static final PinionId BOARD = PinionId.of(1, ObjectType.BOARD, 1);
    private static final BoardRelation FOLLOWS_OWNER = new BoardRelation(null, micros(NOW - 10 * DAY), null, false);

    @Test
    void aDeletedPinIsDroppedAtThePinEvenIfStillInTheFeed() {
        Findings f =
                new Findings(pin(false), follow(FOLLOWS_OWNER), route(false, 1, null), pool(), shown(true), jobs());
        assertVerdict("dropped", Stage.PIN, f);
    }

    @Test
    void aPinInTheMaterializedFeedIsShownWhateverTheFollowsSayNow() {
        BoardRelation unfollowed = new BoardRelation(null, micros(NOW - DAY), null, true);
        Findings f = new Findings(pin(true), follow(unfollowed), route(false, 1, null), pool(), shown(true), jobs());
        assertVerdict("shown", null, f);
    }

    @Test
    void aPoolRowIsPendingAboveTheBarAndDroppedBelowIt() {
        assertVerdict("pending", Stage.SHOWN, withPool(pooled(80)));
        assertVerdict("dropped", Stage.POOL, withPool(pooled(20)));
    }

    @Test
    void aBoardTheUserUnfollowedStopsAtFollow() {
        BoardRelation unfollowed = new BoardRelation(null, micros(NOW - DAY), null, true);
        ExplainVerdict verdict = assertVerdict(
                "not_delivered",
                Stage.FOLLOW,
                new Findings(
                        pin(true), follow(unfollowed), route(false, 0, null), prospect(100), shown(false), jobs()));
        assertTrue(verdict.summary().contains("unfollowed this board"), verdict.summary());
    }

    @Test
    void aPinWorthLessThanTheBarIsDroppedAtPool() {
        assertVerdict("dropped", Stage.POOL, new Findings(pin(true), follow(FOLLOWS_OWNER), route(false, 1, null),
                prospect(30), shown(false), jobs()));
    }

    @Test
    void aPulledPinIsPendingUntilTheUsersPullsHavePassedIt() {
        FeedState pulledBefore = new FeedState(NOW - DAY, NOW - 2 * DAY, null, 0);
        FeedState pulledAfter = new FeedState(NOW, NOW, null, 0);
        assertVerdict(
                "pending",
                Stage.SHOWN,
                new Findings(
                        pin(true),
                        follow(FOLLOWS_OWNER),
                        route(true, 5, pulledBefore),
                        prospect(90),
                        shown(false),
                        jobs()));
        assertVerdict("not_delivered", Stage.POOL, new Findings(pin(true), follow(FOLLOWS_OWNER),
                route(true, 5, pulledAfter), prospect(90), shown(false), jobs()));
    }

    @Test
    void pushesSkipAnInactiveUserUntilTheirRegenerationIsPending() {
        FeedState away = new FeedState(NOW - 30 * DAY, null, null, 0);
        assertVerdict(
                "not_delivered",
                Stage.ROUTE,
                new Findings(
                        pin(true), follow(FOLLOWS_OWNER), route(false, 1, away), prospect(90), shown(false), jobs()));
        assertVerdict("pending", Stage.JOBS, new Findings(pin(true), follow(FOLLOWS_OWNER), route(false, 1, away),
                prospect(90), shown(false), jobs(job(FoundJob.Purpose.REGENERATION, JobState.PENDING))));
    }

    @Test
    void aPinSavedBeforeTheFollowStopsAtRoute() {
        BoardRelation lateFollow = new BoardRelation(null, micros(NOW), null, false);
        ExplainVerdict verdict = assertVerdict("not_delivered", Stage.ROUTE, new Findings(pin(true), follow(lateFollow),
                route(false, 1, null), prospect(90), shown(false), jobs()));
        assertTrue(verdict.summary().contains("backfills only the newest 50 pins"), verdict.summary());
    }

    @Test
    void jobsOnTheirWayArePendingAndFailedOnesStopThePath() {
        assertVerdict("pending", Stage.JOBS, new Findings(pin(true), follow(FOLLOWS_OWNER), route(false, 1, null),
                prospect(90), shown(false), jobs(job(FoundJob.Purpose.DELIVERY, JobState.RUNNING))));
        assertVerdict("not_delivered", Stage.JOBS, new Findings(pin(true), follow(FOLLOWS_OWNER), route(false, 1, null),
                prospect(90), shown(false), jobs(job(FoundJob.Purpose.DELIVERY, JobState.FAILED))));
        assertVerdict("shown", null, new Findings(pin(true), follow(FOLLOWS_OWNER), route(false, 1, null), prospect(90),
                shown(false), jobs(job(FoundJob.Purpose.PERSIST_SHOWN, JobState.PENDING))));
    }

    @Test
    void aStageThatDidNotAnswerIsWhereTheExplanationStops() {
        ExplainVerdict verdict = assertVerdict("not_delivered", Stage.FOLLOW,
                new Findings(pin(true), null, route(false, 1, null), prospect(90), null, null));
        assertTrue(verdict.summary().contains("the shown stage did not answer"), verdict.summary());
    }

    private static ExplainVerdict assertVerdict(String verdict, Stage stoppedAt, Findings findings) {
        ExplainVerdict drawn = ExplainVerdict.of(findings, CONFIG);
        assertEquals(verdict, drawn.verdict(), drawn.summary());
        if (stoppedAt == null) {
            assertNull(drawn.stoppedAt(), drawn.summary());
        } else {
            assertEquals(stoppedAt, drawn.stoppedAt(), drawn.summary());
        }
        return drawn;
    }

    private static Findings withPool(PoolFinding pool) {
        return new Findings(pin(true), follow(FOLLOWS_OWNER), route(false, 1, null), pool, shown(false), jobs());
    }

    private static PinFinding pin(boolean active) {
        return new PinFinding(new PinData(AUTHOR.toString(), BOARD.toString(), "", null, null, List.of(), null,
                Instant.ofEpochMilli(NOW - DAY), active));
    }

    private static FollowFinding follow(BoardRelation relation) {
        return new FollowFinding(false, relation, Map.of());
    }

    private static RouteFinding route(boolean pulled, long receivers, FeedState user) {
        RouteFinding.Indexed author = new RouteFinding.Indexed(new RecentPins.Presence(pulled, pulled ? 1 : 0), 200);
        FanoutRoute.Mode mode = receivers > 3 ? FanoutRoute.Mode.PULLED
                : receivers == 0 ? FanoutRoute.Mode.NOBODY : FanoutRoute.Mode.PUSHED;
        return new RouteFinding(new FanoutRoute.Decision(mode, receivers), pulled ? NOW - DAY : null, author, Map.of(),
                user == null ? new FeedState(NOW - DAY, null, null, 0) : user, NOW - DAY, NOW, CONFIG);
    }

    private static PoolFinding pool() {
        return prospect(100);
    }

    private static PoolFinding prospect(double worth) {
        return new PoolFinding(
                List.of(), 0, List.of(new PoolFinding.Prospect(FeedSource.FOLLOWING, 0, worth)), 50, 2000);
    }

    private static PoolFinding pooled(double worth) {
        PoolEntry entry =
                new PoolEntry(new PoolKey(2, FeedSource.FOLLOWING, 0, 3), AUTHOR.value(), BOARD.value(), NOW, null);
        return new PoolFinding(List.of(new PoolFinding.Pooled(entry, worth, new PoolStore.Standing(4, true, false))), 0,
                List.of(), 50, 2000);
    }

    private static ShownFinding shown(boolean shown) {
        FeedEntry entry = new FeedEntry(3, FeedSource.FOLLOWING, 0, AUTHOR.value(), BOARD.value(), null);
        return shown ? new ShownFinding(new MaterializedFeed.Stored(NOW * 1024 + 1023, entry), 0, 1)
                : new ShownFinding(null, -1, 0);
    }

    private static JobsFinding jobs(FoundJob... jobs) {
        return new JobsFinding(List.of(jobs), List.of(), List.of());
    }

    private static FoundJob job(FoundJob.Purpose purpose, JobState state) {
        Job job = new Job(
                PinionId.of(1, ObjectType.JOB, 1),
                "feed-test",
                0,
                state,
                2,
                new byte[0],
                1,
                10,
                NOW,
                null,
                null,
                NOW,
                NOW,
                null,
                null);
        return new FoundJob(job, purpose, "a test job");
    }

    private static long micros(long millis) {
        return millis * 1000;
    }
}
