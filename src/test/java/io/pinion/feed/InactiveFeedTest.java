package io.pinion.feed;

import static io.pinion.TestApi.createBoard;
import static io.pinion.TestApi.createPin;
import static io.pinion.TestApi.newUser;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.MeterRegistry;
import io.pinion.TestApi.TestUser;
import io.pinion.feed.store.FeedStates;
import io.pinion.feed.store.PoolStore;
import io.pinion.stack.StackTest;
import io.quarkus.test.junit.QuarkusTest;

/**
 * A user whose last visit is older than {@code pinion.feed.inactive-after} gets nothing pushed (any other user does,
 * whatever their approximate pool count says); their next first page
 * still answers within the generator budget, a regeneration then pulls what their follows pinned meanwhile, and they
 * are active again: the next pin is pushed to them.
 */
@QuarkusTest
@StackTest
class InactiveFeedTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final long DAY_MS = 86_400_000L;

    @Inject
    PoolStore pools;
    @Inject
    FeedStates states;
    @Inject
    FeedConfig config;
    @Inject
    MeterRegistry metrics;

    @Test
    void anInactiveUserIsSkippedThenRegeneratedOnReturnAndPushedToAgain() throws Exception {
        TestUser author = newUser();
        TestUser active = newUser();
        TestUser away = newUser();
        String board = createBoard(author, "while you were away");
        long earlier = Long.parseLong(createPin(author, board, "pinned before the follows"));
        active.as().put("/v1/me/following/users/" + author.id()).then().statusCode(200);
        away.as().put("/v1/me/following/users/" + author.id()).then().statusCode(200);
        long awayId = Long.parseLong(away.id());
        long activeId = Long.parseLong(active.id());
        // the follows' backfills ran (so none of them can bring the next pin in)
        eventually(() -> pooled(activeId).contains(earlier) && pooled(awayId).contains(earlier));
        long lastVisit = System.currentTimeMillis() - 20 * DAY_MS;
        states.recordVisits(Map.of(awayId, lastVisit)).await().atMost(WAIT);
        // visits racing each other's persist jobs can take the approximate pool count below zero: still active
        states.poolRows(activeId, -3).await().atMost(WAIT);
        long skippedBefore = FunnelCounts.of(metrics).get("skipped", "following", "inactive");
        double regenerationsBefore = counter("pinion.feed.regenerations");

        long missed = Long.parseLong(createPin(author, board, "pinned while away"));
        eventually(() -> pooled(activeId).contains(missed));
        assertFalse(pooled(awayId).contains(missed), "nothing is pushed to an inactive user");
        assertTrue(FunnelCounts.of(metrics).get("skipped", "following", "inactive") >= skippedBefore + 1);

        long start = System.nanoTime();
        away.as().queryParam("limit", 25).get("/v1/me/home-feed").then().statusCode(200);
        long elapsedMs = (System.nanoTime() - start) / 1_000_000;
        assertTrue(elapsedMs < config.generatorBudget().toMillis() + 1_000, "the first page took " + elapsedMs + " ms");

        eventually(() -> pooled(awayId).contains(missed)
                && counter("pinion.feed.regenerations") >= regenerationsBefore + 1);
        FeedState state = states.read(awayId).await().atMost(WAIT);
        assertTrue(state.lastVisit() > System.currentTimeMillis() - 60_000, "the visit was recorded: active again");

        long next = Long.parseLong(createPin(author, board, "pinned after the return"));
        eventually(() -> pooled(awayId).contains(next));
        List<String> fresh = away.as().queryParam("limit", 25).get("/v1/me/home-feed").then().statusCode(200)
                .extract().jsonPath().getList("items.findAll { it.fresh }.pin.id");
        assertEquals(List.of(Long.toString(next), Long.toString(missed)), fresh);
    }

    private double counter(String name) {
        return metrics.find(name).counters().stream().mapToDouble(c -> c.count()).sum();
    }

    private List<Long> pooled(long user) {
        return pools.top(user, FeedSource.FOLLOWING, 100).await().atMost(WAIT).stream()
                .map(e -> e.key().pin())
                .toList();
    }

    private static void eventually(BooleanSupplier condition) throws InterruptedException {
        Eventually.within(Eventually.JOBS_MS, condition);
    }
}
