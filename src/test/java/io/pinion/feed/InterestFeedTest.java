package io.pinion.feed;

import static io.pinion.TestApi.createBoard;
import static io.pinion.TestApi.newUser;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.BooleanSupplier;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.pinion.TestApi.TestUser;
import io.pinion.feed.store.MaterializedFeed;
import io.pinion.feed.store.PoolStore;
import io.pinion.graph.RecentPin;
import io.pinion.graph.RecentPins;
import io.pinion.stack.StackTest;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

/**
 * Interests are pulled: a new pin enters its interests' recent pins (never a follower's pool) and a follower's next
 * visit pulls it. Following an interest backfills its recent pins (never deleted ones, never the follower's own) into
 * the interests pool; unfollowing it removes that interest's pins from the pools and the materialized feed, except a
 * pin also tagged with another interest the user still follows.
 */
@QuarkusTest
@StackTest
class InterestFeedTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @Inject
    PoolStore pools;
    @Inject
    RecentPins recentPins;
    @Inject
    MaterializedFeed materialized;

    @Test
    void interestPinsArePulledBackfilledAndRemovedOnUnfollowUnlessAnotherFollowedInterestTagsThem() throws Exception {
        String topic = "knitting-" + UUID.randomUUID().toString().substring(0, 8);
        String other = "crochet-" + UUID.randomUUID().toString().substring(0, 8);
        TestUser a = newUser();
        TestUser b = newUser();
        a.as().put("/v1/me/following/interests/" + other).then().statusCode(200); // nothing to backfill yet
        String board = createBoard(b, "yarn");
        String first = pin(b, board, topic);
        String second = pin(b, board, topic);
        String deleted = pin(b, board, topic);
        String own = pin(a, createBoard(a, "mine"), topic);
        assertEquals(Set.of(first, second, deleted, own), Set.copyOf(recent(topic)), "indexed when the pin is saved");
        b.as().delete("/v1/pins/" + deleted).then().statusCode(204);
        assertEquals(Set.of(first, second, own), Set.copyOf(recent(topic)), "and unindexed when it is deleted");

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

        String fresh = pin(b, board, topic);
        String kept = pin(b, board, other);
        String both = pin(b, board, List.of(topic, other));
        assertTrue(pooled(user).isEmpty(), "nothing is pushed into interests pools");
        JsonPath pulled = feed(a);
        assertEquals(Set.of(fresh, kept, both), Set.copyOf(pulled.getList("items.findAll { it.fresh }.pin.id")),
                "the next visit pulls the interests' new pins");
        eventually(() -> materialized.all(user).await().atMost(WAIT).size() == 5);

        a.as().delete("/v1/me/following/interests/" + topic).then().statusCode(200);
        eventually(() -> materialized.all(user).await().atMost(WAIT).size() == 2);
        assertEquals(Set.of(kept, both), Set.copyOf(feed(a).getList("items.pin.id")),
                "the interest's pins left the materialized feed; the other interest's pins stayed, "
                        + "including the one tagged with both");
    }

    private List<String> pooled(long user) {
        return pools.top(user, FeedSource.INTERESTS, 10).await().atMost(WAIT).stream()
                .map(entry -> Long.toString(entry.key().pin())).toList();
    }

    private List<String> recent(String interest) {
        return recentPins.newest(recentPins.interest(interest), Long.MIN_VALUE, 10).await().atMost(WAIT).stream()
                .map(RecentPin::pin).map(Object::toString).toList();
    }

    private static String pin(TestUser user, String board, String interest) {
        return pin(user, board, List.of(interest));
    }

    private static String pin(TestUser user, String board, List<String> interests) {
        return user.as().body(Map.of("boardId", board, "description", "about " + interests,
                        "imageUrl", "https://img.example.com/" + UUID.randomUUID() + ".jpg", "interests", interests))
                .post("/v1/pins").then().statusCode(201).extract().path("id");
    }

    private static JsonPath feed(TestUser user) {
        return user.as().queryParam("limit", 25).get("/v1/me/home-feed").then().statusCode(200).extract().jsonPath();
    }

    private static void eventually(BooleanSupplier condition) throws InterruptedException {
        Eventually.within(Eventually.JOBS_MS, condition);
    }
}
