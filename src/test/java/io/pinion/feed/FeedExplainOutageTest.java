package io.pinion.feed;

import static io.pinion.TestApi.admin;
import static io.pinion.TestApi.createBoard;
import static io.pinion.TestApi.createPin;
import static io.pinion.TestApi.newUser;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import io.pinion.TestApi.TestUser;
import io.pinion.feed.store.PoolStore;
import io.pinion.graph.Graph;
import io.pinion.graph.VirtualShards;
import io.pinion.stack.LocalStack;
import io.pinion.stack.StackTest;
import io.pinion.topology.ActiveTopology;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;

/**
 * An explanation while the graph's Redis instances are down (paused for real): the stages read from Redis say they
 * are unavailable and why, the pin, pool, shown and jobs stages still answer from MySQL and HBase, and the answer
 * comes within the per-stage timeout.
 */
@QuarkusTest
@StackTest
@TestProfile(DeliveryProfile.class)
@Tag("fault")
class FeedExplainOutageTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @Inject
    PoolStore pools;
    @Inject
    VirtualShards shards;
    @Inject
    ActiveTopology topology;

    @Test
    void theStagesOfADownBackendSaySoAndTheOthersStillAnswer() throws Exception {
        TestUser author = newUser();
        TestUser follower = newUser();
        String board = createBoard(author, "explained in an outage");
        follower.as().put("/v1/me/following/users/" + author.id()).then().statusCode(200);
        String pin = createPin(author, board, "pooled");
        long user = Long.parseLong(follower.id());
        Eventually.within(Eventually.JOBS_MS, () -> pools.top(user, FeedSource.FOLLOWING, 10).await().atMost(WAIT)
                .stream().anyMatch(entry -> entry.key().pin() == Long.parseLong(pin)));
        TestUser admin = admin();

        JsonPath explained;
        long elapsedMs;
        LocalStack.run("pause", "redis-1", "redis-2");
        try {
            long start = System.nanoTime();
            explained = admin.as().queryParam("user", follower.id()).queryParam("pin", pin)
                    .get("/v1/admin/feed/explain").then().statusCode(200).extract().jsonPath();
            elapsedMs = (System.nanoTime() - start) / 1_000_000;
        } finally {
            LocalStack.run("resume", "redis-1", "redis-2");
            Graph.awaitAnswering(shards, topology);
        }

        assertTrue(elapsedMs < 5_000, "answered in " + elapsedMs + " ms");
        assertEquals(List.of("ok", "unavailable", "unavailable", "ok", "stop", "ok"), explained.getList("stages.state"),
                explained.prettify());
        String follow = explained.getString("stages.find { it.stage == 'follow' }.summary");
        assertTrue(follow.startsWith("not read: "), follow);
        assertEquals("following", explained.getString("stages.find { it.stage == 'pool' }.evidence.rows[0].source"),
                "the pool row is read from HBase all the same");
    }
}
