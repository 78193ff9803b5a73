package io.pinion.graph;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import io.pinion.TestApi.TestUser;
import io.pinion.Wait;
import io.pinion.stack.LocalStack;
import io.pinion.stack.StackTest;
import io.pinion.topology.ActiveTopology;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Faults of a Redis instance, produced for real: a paused instance during follows whose two sides live on
 * different instances, and a crashed (SIGKILL) instance restarting from its AOF.
 */
@QuarkusTest
@StackTest
@Tag("fault")
class GraphOutageTest {

    @Inject
    VirtualShards shards;
    @Inject
    ActiveTopology topology;

    @Test
    void aPausedInstanceGivesSuccessOrA503AndBothSidesAgreeSoonAfterResume() throws Exception {
        TestUser onFirst = userOn("redis-1");
        TestUser onSecond = userOn("redis-2");
        TestUser otherOnFirst = userOn("redis-1");
        TestUser otherOnSecond = userOn("redis-2");
        int[] statuses = new int[2];
        LocalStack.run("pause", "redis-2");
        try {
            // follower's side on redis-1, followed side on the paused redis-2: accepted, repaired later
            statuses[0] = onFirst.as().put("/v1/me/following/users/" + onSecond.id()).then().extract().statusCode();
            // follower's side on the paused instance: a clear 503
            statuses[1] = otherOnSecond
                    .as()
                    .put("/v1/me/following/users/" + otherOnFirst.id())
                    .then()
                    .extract()
                    .statusCode();
            given().get("/v1/users/" + otherOnFirst.id() + "/following/users/" + onFirst.id()).then().statusCode(200);
        } finally {
            LocalStack.run("resume", "redis-2");
        }
        for (int status : statuses) {
            assertTrue(status == 200 || status == 503, "status " + status);
        }
        assertEquals(200, statuses[0], "the follower's side was written, so the follow is accepted");
        long resumed = System.currentTimeMillis();

        within(Duration.ofSeconds(10), () -> agree(onFirst, onSecond) && agree(otherOnSecond, otherOnFirst),
                "both sides of both follows agree");
        System.out.printf("both sides agreed %d ms after resume%n", System.currentTimeMillis() - resumed);
        assertTrue(Graph.followsUser(onFirst.id(), onSecond.id()));
        assertEquals(1, Graph.userCounts(onSecond.id()).getLong("followers"));
        assertEquals(1, Graph.userCounts(onFirst.id()).getLong("following"));
    }

    @Test
    void aCrashedInstanceRestoresTheGraphFromItsAppendOnlyFile() throws Exception {
        TestUser a = userOn("redis-1");
        TestUser b = userOn("redis-1");
        String board = io.pinion.TestApi.createBoard(b, "survives a crash");
        Graph.followUser(a, b.id());
        Graph.unfollowBoard(a, board);
        a.as().put("/v1/me/following/interests/Redis Crashes").then().statusCode(200);
        Wait.pause(Duration.ofMillis(1_500), "appendfsync everysec: at most the last second is lost, by design");

        LocalStack.run("kill", "redis-1");
        LocalStack.run("start", "redis-1");

        within(Duration.ofSeconds(20), () -> given().get("/v1/users/" + a.id() + "/following/users/" + b.id())
                .then().extract().statusCode() == 200, "the restarted instance answers a follow check");
        assertTrue(Graph.followsUser(a.id(), b.id()));
        assertTrue(!Graph.followsBoard(a.id(), board), "the board unfollow survived too");
        assertEquals(List.of(a.id()), Graph.all("/v1/users/" + b.id() + "/followers"));
        assertEquals(List.of("redis crashes"), Graph.all("/v1/users/" + a.id() + "/following?kind=interests"));
        assertEquals(0, Graph.boardFollowerCount(board));
        // the scripts are loaded again into the restarted instance on first use
        TestUser c = userOn("redis-1");
        Graph.followUser(c, b.id());
        assertEquals(2, Graph.userCounts(b.id()).getLong("followers"));
    }

    private boolean agree(TestUser follower, TestUser followed) {
        boolean follows = Graph.followsUser(follower.id(), followed.id());
        boolean listed = Graph.all("/v1/users/" + followed.id() + "/followers").contains(follower.id());
        long count = Graph.userCounts(followed.id()).getLong("followers");
        return follows == listed && count == (listed ? 1 : 0);
    }

    private TestUser userOn(String instance) {
        return Graph.userOn(instance, shards, topology);
    }

    /** Until the condition holds; it may fail or throw meanwhile: the instance may still be loading its data. */
    private static void within(Duration limit, BooleanSupplier condition, String what) throws InterruptedException {
        AtomicReference<Throwable> notYet = new AtomicReference<>();
        Wait.within(limit.toMillis(), () -> {
            notYet.set(null);
            try {
                return condition.getAsBoolean();
            } catch (AssertionError | RuntimeException e) {
                notYet.set(e);
                return false;
            }
        }, () -> what + (notYet.get() == null ? "" : " (last: " + notYet.get() + ")"));
    }
}
