package io.pinion.store;

import static io.pinion.TestApi.createBoard;
import static io.pinion.TestApi.createPin;
import static io.pinion.TestApi.newUser;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.BooleanSupplier;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import io.pinion.TestApi;
import io.pinion.TestApi.TestUser;
import io.pinion.Wait;
import io.pinion.graph.Graph;
import io.pinion.graph.VirtualShards;
import io.pinion.id.PinionId;
import io.pinion.stack.LocalStack;
import io.pinion.stack.StackTest;
import io.pinion.topology.ActiveTopology;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The object cache on one instance: writes are read back at once; when its invalidation channel's Redis is paused
 * (for real) the cache is bypassed, reads and writes go on against MySQL without errors, and the cache is used again
 * once the channel delivers; when that Redis is killed the cache is emptied too and starts over after the restart. Two
 * instances: {@code CacheAcrossInstancesIT}.
 */
@QuarkusTest
@StackTest
class ObjectCacheTest {

    @Inject
    ObjectCache cache;
    @Inject
    ActiveTopology topology;
    @Inject
    VirtualShards shards;

    @Test
    void writesAreReadBackAtOnceThroughTheCache() throws InterruptedException {
        eventually(cache::usable, 10_000);
        TestUser author = newUser();
        TestUser fan = newUser();
        String board = createBoard(author, "cached");
        String pin = createPin(author, board, "cached pin");
        given().get("/v1/pins/" + pin).then().statusCode(200).body("counts.likes", equalTo(0));
        assertNotNull(cache.get(Long.parseLong(pin)), "a read pin is cached");

        fan.as().put("/v1/pins/" + pin + "/like").then().statusCode(200).body("likeCount", equalTo(1));
        given().get("/v1/pins/" + pin).then().statusCode(200).body("counts.likes", equalTo(1));
        given().get("/v1/boards/" + board).then().statusCode(200).body("counts.pins", equalTo(1));

        author.as().delete("/v1/pins/" + pin).then().statusCode(204);
        given().get("/v1/pins/" + pin).then().statusCode(404);
        given().get("/v1/boards/" + board).then().statusCode(200).body("counts.pins", equalTo(0));
    }

    @Test
    void aFollowCheckIsReadBackAtOnceAfterAFollowAndAnUnfollow() throws InterruptedException {
        eventually(cache::usable, 10_000);
        TestUser reader = newUser();
        TestUser author = newUser();
        String check = "/v1/users/" + reader.id() + "/following/users/" + author.id();
        given().get(check).then().statusCode(200).body("following", equalTo(false));
        given().get(check).then().statusCode(200).body("following", equalTo(false));

        reader.as().put("/v1/me/following/users/" + author.id()).then().statusCode(200);
        given().get(check).then().statusCode(200).body("following", equalTo(true));
        reader.as().delete("/v1/me/following/users/" + author.id()).then().statusCode(200);
        given().get(check).then().statusCode(200).body("following", equalTo(false));

        String board = createBoard(author, "followed alone");
        reader.as().put("/v1/me/following/boards/" + board).then().statusCode(200);
        given().get(check).then().statusCode(200).body("following", equalTo(false))
                .body("implicit", equalTo(true));
    }

    @Test
    @Tag("fault")
    void aPausedChannelBypassesTheCacheAndReadsGoToMysqlUntilItIsBack() throws InterruptedException {
        eventually(cache::usable, 10_000);
        TestUser author = newUser();
        TestUser fan = newUser();
        String pin = createPin(author, createBoard(author, "outage"), "read through an outage");
        given().get("/v1/pins/" + pin).then().statusCode(200);
        assertNotNull(cache.get(Long.parseLong(pin)));

        String channel = topology.get().redis().instances().get(0).name();
        LocalStack.run("pause", channel);
        try {
            eventually(() -> !cache.usable(), 3_000);
            long start = System.nanoTime();
            given().get("/v1/pins/" + pin).then().statusCode(200).body("counts.likes", equalTo(0));
            fan.as().put("/v1/pins/" + pin + "/like").then().statusCode(200).body("likeCount", equalTo(1));
            given().get("/v1/pins/" + pin).then().statusCode(200).body("counts.likes", equalTo(1));
            assertTrue(
                    (System.nanoTime() - start) / 1_000_000 < 2_000,
                    "reads and a like during the outage took over 2 s");
            assertNull(cache.get(Long.parseLong(pin)), "nothing is cached while the channel is down");
        } finally {
            LocalStack.run("resume", channel);
        }
        eventually(cache::usable, 10_000);
        given().get("/v1/pins/" + pin).then().statusCode(200).body("counts.likes", equalTo(1));
        given().get("/v1/pins/" + pin).then().statusCode(200).body("counts.likes", equalTo(1));
        assertNotNull(cache.get(PinionId.parse(pin).value()), "the cache is used again");
        leaveTheStackAsFound();
    }

    @Test
    @Tag("fault")
    void aLostChannelEmptiesTheCacheWhichStartsOverWhenItIsBack() throws InterruptedException {
        eventually(cache::usable, 10_000);
        TestUser author = newUser();
        String pin = createPin(author, createBoard(author, "lost"), "cached before the loss");
        given().get("/v1/pins/" + pin).then().statusCode(200);
        assertNotNull(cache.get(Long.parseLong(pin)));

        String channel = topology.get().redis().instances().get(0).name();
        LocalStack.run("kill", channel);
        try {
            // missed heartbeats may pause the cache (entries kept) before the lost connection empties it
            eventually(() -> !cache.usable() && cache.get(Long.parseLong(pin)) == null, 5_000);
            given().get("/v1/pins/" + pin).then().statusCode(200);
            assertNull(cache.get(Long.parseLong(pin)), "nothing is cached while the channel is lost");
        } finally {
            LocalStack.run("start", channel);
        }
        eventually(cache::usable, 20_000);
        given().get("/v1/pins/" + pin).then().statusCode(200);
        assertNotNull(cache.get(Long.parseLong(pin)), "the cache is used again once the channel is back");
        leaveTheStackAsFound();
    }

    /**
     * The next test finds every backend as this one found it: the graph answers on every Redis instance (its breaker
     * outlives the server's return) and the restarted server's replica has linked up again (the backends' health
     * group is UP).
     */
    private void leaveTheStackAsFound() throws InterruptedException {
        Graph.awaitAnswering(shards, topology);
        Wait.within(60_000, () -> TestApi.management().get("/q/health/group/backends").statusCode() == 200,
                "every backend up again, the Redis replica linked to its master");
    }

    private static void eventually(BooleanSupplier condition, long withinMs) throws InterruptedException {
        Wait.within(withinMs, condition);
    }
}
