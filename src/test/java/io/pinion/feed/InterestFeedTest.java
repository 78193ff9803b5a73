package io.pinion.feed;

import static io.pinion.TestApi.createBoard;
import static io.pinion.TestApi.newUser;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.BooleanSupplier;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.pinion.TestApi.TestUser;
import io.pinion.graph.InterestPins;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

/**
 * Following an interest backfills its recent pins (never deleted ones, never the follower's own) into the interests
 * pool; unfollowing it removes that interest's pins from the pools and the materialized feed, and only those.
 */
@QuarkusTest
class InterestFeedTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @Inject
    PoolStore pools;
    @Inject
    InterestPins interestPins;
    @Inject
    MaterializedFeed materialized;

    @Test
    void followingAnInterestBackfillsItsRecentPinsAndUnfollowingRemovesThem() throws Exception {
        String topic = "knitting-" + UUID.randomUUID().toString().substring(0, 8);
        String other = "crochet-" + UUID.randomUUID().toString().substring(0, 8);
        TestUser a = newUser();
        TestUser b = newUser();
        String board = createBoard(b, "yarn");
        String first = pin(b, board, topic);
        String second = pin(b, board, topic);
        String deleted = pin(b, board, topic);
        String own = pin(a, createBoard(a, "mine"), topic);
        eventually(() -> Set.copyOf(recent(topic)).equals(Set.of(first, second, deleted, own)));
        b.as().delete("/v1/pins/" + deleted).then().statusCode(204);
        eventually(() -> Set.copyOf(recent(topic)).equals(Set.of(first, second, own)));

        long user = Long.parseLong(a.id());
        a.as().put("/v1/me/following/interests/" + topic).then().statusCode(200);
        eventually(() -> pooled(user).size() == 2);
        assertEquals(Set.of(first, second), Set.copyOf(pooled(user)), "backfilled: not the deleted pin, not a's own");
        pools.top(user, FeedSource.INTERESTS, 10).await().atMost(WAIT)
                .forEach(entry -> assertEquals(topic, entry.interest(), "the entry names its interest"));

        JsonPath page = feed(a);
        assertEquals(Set.of(first, second), Set.copyOf(page.getList("items.pin.id")));
        assertEquals(List.of("interests", "interests"), page.getList("items.source"));
        eventually(() -> pooled(user).isEmpty());

        a.as().put("/v1/me/following/interests/" + other).then().statusCode(200);
        String fresh = pin(b, board, topic);
        String kept = pin(b, board, other);
        eventually(() -> Set.copyOf(pooled(user)).equals(Set.of(fresh, kept)));

        a.as().delete("/v1/me/following/interests/" + topic).then().statusCode(200);
        eventually(() -> pooled(user).equals(List.of(kept)));
        eventually(() -> materialized.all(user).await().atMost(WAIT).isEmpty());
        assertEquals(List.of(kept), feed(a).getList("items.pin.id"),
                "the interest's pins left the pools and the materialized feed; the other interest's pin stayed");
    }

    private List<String> pooled(long user) {
        return pools.top(user, FeedSource.INTERESTS, 10).await().atMost(WAIT).stream()
                .map(entry -> Long.toString(entry.key().pin())).toList();
    }

    private List<String> recent(String interest) {
        return interestPins.recent(interest, 10).await().atMost(WAIT).stream().map(Object::toString).toList();
    }

    private static String pin(TestUser user, String board, String interest) {
        return user.as().body(Map.of("boardId", board, "description", "about " + interest,
                        "imageUrl", "https://img.example.com/" + UUID.randomUUID() + ".jpg", "interests", List.of(interest)))
                .post("/v1/pins").then().statusCode(201).extract().path("id");
    }

    private static JsonPath feed(TestUser user) {
        return user.as().queryParam("limit", 25).get("/v1/me/home-feed").then().statusCode(200).extract().jsonPath();
    }

    private static void eventually(BooleanSupplier condition) throws InterruptedException {
        Eventually.within(Eventually.JOBS_MS, condition);
    }
}
