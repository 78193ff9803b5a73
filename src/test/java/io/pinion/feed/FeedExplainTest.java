package io.pinion.feed;

import static io.pinion.TestApi.admin;
import static io.pinion.TestApi.createBoard;
import static io.pinion.TestApi.createPin;
import static io.pinion.TestApi.newUser;
import static io.pinion.TestApi.shardOf;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.BooleanSupplier;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.pinion.TestApi.TestUser;
import io.pinion.Wait;
import io.pinion.feed.fanout.FeedJobs;
import io.pinion.feed.store.MaterializedFeed;
import io.pinion.feed.store.PoolStore;
import io.pinion.graph.FollowEvents;
import io.pinion.id.ObjectType;
import io.pinion.id.PinionId;
import io.pinion.stack.StackTest;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;

/**
 * {@code GET /v1/admin/feed/explain} walks a pin's way to a user and says where it stopped, with the evidence: a
 * pushed pin waiting in the pool and then shown (chunk and position), an interest pin dropped below the quality bar,
 * a pin of a board the user unfollowed, a deleted pin, a pulled author's pin read at the next visit; and the error
 * cases. Pull threshold 3 and quality bar 50 ({@link DeliveryProfile}).
 */
@QuarkusTest
@StackTest
@TestProfile(DeliveryProfile.class)
class FeedExplainTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @Inject
    PoolStore pools;
    @Inject
    MaterializedFeed materialized;

    @Test
    void aPushedPinWaitsInThePoolThenIsShownWithItsChunkAndPosition() throws Exception {
        TestUser author = newUser();
        TestUser follower = newUser();
        String board = createBoard(author, "explained");
        follower.as().put("/v1/me/following/users/" + author.id()).then().statusCode(200);
        String pin = createPin(author, board, "pushed");
        long user = Long.parseLong(follower.id());
        eventually(() -> pooled(user).contains(Long.parseLong(pin)));

        JsonPath waiting = explain(follower.id(), pin);
        assertEquals("pending", waiting.getString("verdict"));
        assertEquals("shown", waiting.getString("stoppedAt"));
        assertEquals("implicit (follows the owner)", stage(waiting, "follow").getString("evidence.how"));
        assertEquals("pushed", stage(waiting, "route").getString("evidence.route"));
        JsonPath pool = stage(waiting, "pool");
        assertEquals("ok", pool.getString("state"));
        assertEquals("following", pool.getString("evidence.rows[0].source"));
        assertTrue(pool.getDouble("evidence.rows[0].worthNow") > 99, "a fresh following pin is worth about 100");
        assertEquals(0, pool.getInt("evidence.rows[0].rankedAbove"));
        assertEquals(List.of("pin", "follow", "route", "pool", "shown", "jobs"), waiting.getList("stages.stage"));

        follower.as().get("/v1/me/home-feed").then().statusCode(200).body("items[0].pin.id", equalTo(pin));
        eventually(() -> shown(user).contains(Long.parseLong(pin)));
        JsonPath shown = explain(follower.id(), pin);
        assertEquals("shown", shown.getString("verdict"));
        assertNull(shown.getString("stoppedAt"));
        JsonPath feed = stage(shown, "shown");
        assertEquals("ok", feed.getString("state"));
        assertNotNull(feed.getString("evidence.chunk"));
        assertEquals(0, feed.getInt("evidence.positionInChunk"));
        assertEquals(0, feed.getInt("evidence.positionInFeed"));
        assertTrue(stage(shown, "pool").getList("evidence.rows").isEmpty(), "the shown pin left the pool");
    }

    @Test
    void aChunkWaitingToBeMaterializedShowsThroughItsPersistJob() throws Exception {
        TestUser author = newUser();
        TestUser follower = newUser();
        String board = createBoard(author, "persisting");
        follower.as().put("/v1/me/following/users/" + author.id()).then().statusCode(200);
        TestUser admin = admin();
        // persisting is held from here on
        admin.as().body(Map.of("rateLimit", 0)).patch("/v1/queues/" + FeedJobs.PERSIST).then().statusCode(200);
        Wait.pause(Duration.ofMillis(1_500), "every instance applies a queue's settings within a second");
        try {
            String pin = createPin(author, board, "held");
            eventually(() -> pooled(Long.parseLong(follower.id())).contains(Long.parseLong(pin)));
            follower.as().get("/v1/me/home-feed").then().statusCode(200).body("items[0].pin.id", equalTo(pin));

            JsonPath explained = explain(follower.id(), pin);
            assertEquals("shown", explained.getString("verdict"));
            assertTrue(explained.getString("summary").contains("feed-persist job"), explained.getString("summary"));
            assertFalse(stage(explained, "shown").getBoolean("evidence.shown"), "not materialized yet");
            JsonPath jobs = stage(explained, "jobs");
            assertEquals(FeedJobs.PERSIST, jobs.getString("evidence.jobs[0].queue"));
            assertTrue(List.of("pending", "running").contains(jobs.getString("evidence.jobs[0].state")));
            assertTrue(jobs.getString("evidence.jobs[0].kind").endsWith("which showed the pin at position 0"),
                    jobs.getString("evidence.jobs[0].kind"));
        } finally {
            admin.as().body(Map.of("unlimited", true)).patch("/v1/queues/" + FeedJobs.PERSIST).then().statusCode(200);
        }
    }

    @Test
    void anInterestPinBelowTheQualityBarIsDropped() throws InterruptedException {
        String topic = "explain-" + UUID.randomUUID().toString().substring(0, 8);
        TestUser author = newUser();
        TestUser reader = newUser();
        reader.as().put("/v1/me/following/interests/" + topic).then().statusCode(200);
        // the follow's backfill has run: the pin is pulled at the visit, never backfilled into the pool
        Eventually.idle(admin(), List.of(FollowEvents.QUEUE));
        String pin = author.as()
                .body(Map.of(
                        "boardId",
                        createBoard(author, "topics"),
                        "description",
                        "about " + topic,
                        "imageUrl",
                        "https://img.example.com/" + UUID.randomUUID() + ".jpg",
                        "interests",
                        List.of(topic)))
                .post("/v1/pins")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        List<String> fresh = reader.as().get("/v1/me/home-feed").then().statusCode(200)
                .extract().path("items.findAll { it.fresh }.pin.id");
        assertFalse(fresh.contains(pin), "the visit's chunk left it out");

        JsonPath explained = explain(reader.id(), pin);
        assertEquals("dropped", explained.getString("verdict"));
        assertEquals("pool", explained.getString("stoppedAt"));
        assertEquals(Map.of(topic, true), stage(explained, "follow").getMap("evidence.interests"));
        assertTrue(stage(explained, "route").getBoolean("evidence.interestRecentPins.'" + topic + "'.holdsPin"));
        JsonPath pool = stage(explained, "pool");
        assertEquals("stop", pool.getString("state"));
        assertTrue(pool.getList("evidence.rows").isEmpty());
        double worth = pool.getDouble("evidence.ifScoredNow.interests.worthNow");
        assertTrue(worth < 50 && worth > 39, "a fresh interest pin is worth about 40, below the bar of 50: " + worth);
        assertEquals("info", stage(explained, "shown").getString("state"));
    }

    @Test
    void aPinOfABoardTheUserUnfollowedStopsAtFollow() {
        TestUser author = newUser();
        TestUser follower = newUser();
        String board = createBoard(author, "skipped");
        follower.as().put("/v1/me/following/users/" + author.id()).then().statusCode(200);
        follower.as().delete("/v1/me/following/boards/" + board).then().statusCode(200);
        String pin = createPin(author, board, "not for the follower");

        JsonPath explained = explain(follower.id(), pin);
        assertEquals("not_delivered", explained.getString("verdict"));
        assertEquals("follow", explained.getString("stoppedAt"));
        assertTrue(explained.getString("summary").contains("unfollowed this board"), explained.getString("summary"));
        JsonPath follow = stage(explained, "follow");
        assertEquals("stop", follow.getString("state"));
        assertEquals("unfollowed board", follow.getString("evidence.how"));
        assertEquals("explicit", follow.getString("evidence.followsAuthor"));
        assertTrue(follow.getBoolean("evidence.boardUnfollowed"));
        assertFalse(follow.getBoolean("evidence.receivesBoard"));
    }

    @Test
    void aDeletedPinStopsAtPin() {
        TestUser author = newUser();
        TestUser follower = newUser();
        String board = createBoard(author, "deleting");
        follower.as().put("/v1/me/following/users/" + author.id()).then().statusCode(200);
        String pin = createPin(author, board, "deleted");
        author.as().delete("/v1/pins/" + pin).then().statusCode(204);

        JsonPath explained = explain(follower.id(), pin);
        assertEquals("dropped", explained.getString("verdict"));
        assertEquals("pin", explained.getString("stoppedAt"));
        JsonPath stage = stage(explained, "pin");
        assertEquals("stop", stage.getString("state"));
        assertFalse(stage.getBoolean("evidence.active"));
        assertEquals(author.id(), stage.getString("evidence.author"));
        assertEquals(board, stage.getString("evidence.board"));
        assertTrue(stage.getString("source").contains("(shard " + shardOf(pin) + ")"), stage.getString("source"));
    }

    @Test
    void aPulledAuthorsPinIsInTheirRecentPinsUntilTheNextVisitShowsIt() throws Exception {
        TestUser author = newUser();
        String board = createBoard(author, "popular");
        TestUser reader = newUser();
        reader.as().put("/v1/me/following/users/" + author.id()).then().statusCode(200);
        for (int i = 0; i < 3; i++) {
            newUser().as().put("/v1/me/following/users/" + author.id()).then().statusCode(200);
        }
        String pin = createPin(author, board, "pulled");

        JsonPath pulled = explain(reader.id(), pin);
        assertEquals("pending", pulled.getString("verdict"));
        assertEquals("shown", pulled.getString("stoppedAt"));
        JsonPath route = stage(pulled, "route");
        assertEquals("pulled", route.getString("evidence.route"));
        assertEquals(4, route.getInt("evidence.boardReceiversNow"));
        assertEquals(3, route.getInt("evidence.pullThreshold"));
        assertTrue(route.getBoolean("evidence.authorInPullRegistry"));
        assertTrue(route.getBoolean("evidence.authorRecentPins.holdsPin"));
        assertEquals(1, route.getInt("evidence.authorRecentPins.size"));
        JsonPath pool = stage(pulled, "pool");
        assertTrue(pool.getList("evidence.rows").isEmpty(), "a pulled pin has no pool row");
        assertTrue(pool.getDouble("evidence.ifScoredNow.following.worthNow") >= 50);

        reader.as().get("/v1/me/home-feed").then().statusCode(200).body("items[0].pin.id", equalTo(pin));
        long user = Long.parseLong(reader.id());
        eventually(() -> shown(user).contains(Long.parseLong(pin)));
        JsonPath shown = explain(reader.id(), pin);
        assertEquals("shown", shown.getString("verdict"));
        assertEquals("following", stage(shown, "shown").getString("evidence.source"));
    }

    @Test
    void unknownIdsAre404BadIds400AndOnlyAdminsMayAsk() {
        TestUser author = newUser();
        TestUser reader = newUser();
        String pin = createPin(author, createBoard(author, "errors"), "errors");
        String noUser = PinionId.of(shardOf(reader.id()), ObjectType.USER, PinionId.MAX_LOCAL - 1).toString();
        String noPin = PinionId.of(shardOf(pin), ObjectType.PIN, PinionId.MAX_LOCAL - 1).toString();
        TestUser admin = admin();

        ask(admin, noUser, pin).then().statusCode(404).body("error", equalTo("user_not_found"));
        ask(admin, reader.id(), noPin).then().statusCode(404).body("error", equalTo("pin_not_found"));
        ask(admin, "not-an-id", pin).then().statusCode(400).body("error", equalTo("invalid_id"));
        ask(admin, reader.id(), reader.id()).then().statusCode(400).body("error", equalTo("wrong_id_type"));
        ask(admin, reader.id(), null).then().statusCode(400).body("error", equalTo("invalid_id"));
        ask(reader, reader.id(), pin).then().statusCode(403).body("error", equalTo("forbidden"));
        given().queryParam("user", reader.id()).queryParam("pin", pin).get("/v1/admin/feed/explain")
                .then().statusCode(401).body("error", equalTo("unauthorized"));
    }

    /** The explanation; with the whole stack up, no stage is unavailable. */
    private static JsonPath explain(String user, String pin) {
        JsonPath explanation = ask(admin(), user, pin).then().statusCode(200).extract().jsonPath();
        assertFalse(explanation.getList("stages.state").contains("unavailable"), explanation.prettify());
        return explanation;
    }


    private static io.restassured.response.Response ask(TestUser as, String user, String pin) {
        var request = as.as().queryParam("user", user);
        if (pin != null) {
            request.queryParam("pin", pin);
        }
        return request.get("/v1/admin/feed/explain");
    }

    private static JsonPath stage(JsonPath explanation, String name) {
        return new JsonPath(explanation.prettify()).setRootPath("stages.find { it.stage == '" + name + "' }");
    }

    private List<Long> pooled(long user) {
        return pools.top(user, FeedSource.FOLLOWING, 100).await().atMost(WAIT).stream()
                .map(e -> e.key().pin())
                .toList();
    }

    private List<Long> shown(long user) {
        return materialized.all(user).await().atMost(WAIT).stream().map(s -> s.entry().pin()).toList();
    }

    private static void eventually(BooleanSupplier condition) throws InterruptedException {
        Eventually.within(Eventually.JOBS_MS, condition);
    }
}
