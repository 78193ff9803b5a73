package io.pinion.feed;

import static io.pinion.TestApi.createBoard;
import static io.pinion.TestApi.createPin;
import static io.pinion.TestApi.newUser;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.pinion.TestApi.TestUser;
import io.pinion.feed.store.PoolStore;
import io.pinion.stack.StackTest;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

/**
 * The home feed end to end: fan-out into pools, a chunk best-first on the first visit, materialized afterwards and
 * shown again (behind new pins) on the next; pools emptied of what was shown; paging by cursor.
 */
@QuarkusTest
@StackTest
class HomeFeedTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @Inject
    PoolStore pools;

    @Test
    void followedPinsArriveBestFirstThenStayInTheFeed() throws Exception {
        TestUser a = newUser();
        TestUser b = newUser();
        String board = createBoard(b, "pinned for a");
        a.as().put("/v1/me/following/users/" + b.id()).then().statusCode(200);
        String first = createPin(b, board, "one");
        String second = createPin(b, board, "two");
        String third = createPin(b, board, "three");
        long user = Long.parseLong(a.id());
        eventually(() -> pools.top(user, FeedSource.FOLLOWING, 10).await().atMost(WAIT).size() == 3);

        JsonPath page = feed(a, null, 25);
        assertEquals(
                List.of(third, second, first), page.getList("items.pin.id"), "newest scores best with equal affinity");
        assertEquals(List.of(true, true, true), page.getList("items.fresh"));
        assertEquals(List.of("following", "following", "following"), page.getList("items.source"));

        eventually(() -> pools.top(user, FeedSource.FOLLOWING, 10).await().atMost(WAIT).isEmpty());
        JsonPath again = feed(a, null, 25);
        assertEquals(List.of(third, second, first), again.getList("items.pin.id"), "materialized in the chunk's order");
        assertEquals(List.of(false, false, false), again.getList("items.fresh"));

        String fourth = createPin(b, board, "four");
        eventually(() -> pools.top(user, FeedSource.FOLLOWING, 10).await().atMost(WAIT).size() == 1);
        JsonPath third_visit = feed(a, null, 2);
        assertEquals(
                List.of(fourth, third, second), third_visit.getList("items.pin.id"), "new chunk, then 2 shown before");
        String cursor = third_visit.getString("nextCursor");
        JsonPath next = feed(a, cursor, 2);
        assertEquals(List.of(first), next.getList("items.pin.id"));
        assertEquals(null, next.getString("nextCursor"));
    }

    @Test
    void followingBackfillsUnfollowingRemovesAndDeletedPinsVanishAtOnce() throws Exception {
        TestUser a = newUser();
        TestUser b = newUser();
        TestUser c = newUser();
        String bBoard = createBoard(b, "b's");
        String cBoard = createBoard(c, "c's");
        String old = createPin(b, bBoard, "pinned before the follow");
        String cPin = createPin(c, cBoard, "c's pin");
        String cOther = createPin(c, cBoard, "c's other pin");
        long user = Long.parseLong(a.id());
        a.as().put("/v1/me/following/users/" + b.id()).then().statusCode(200);
        a.as().put("/v1/me/following/boards/" + cBoard).then().statusCode(200);
        eventually(() -> pools.top(user, FeedSource.FOLLOWING, 10).await().atMost(WAIT).size() == 3);

        assertEquals(
                java.util.Set.of(old, cPin, cOther),
                java.util.Set.copyOf(feed(a, null, 25).getList("items.pin.id")),
                "backfilled on follow");
        eventually(() -> pools.top(user, FeedSource.FOLLOWING, 10).await().atMost(WAIT).isEmpty());
        String fresh = createPin(b, bBoard, "after the visit");
        eventually(() -> pools.top(user, FeedSource.FOLLOWING, 10).await().atMost(WAIT).size() == 1);

        b.as().delete("/v1/pins/" + old).then().statusCode(204);
        c.as().delete("/v1/pins/" + cOther).then().statusCode(204);
        a.as().delete("/v1/me/following/users/" + b.id()).then().statusCode(200);
        eventually(() -> pools.top(user, FeedSource.FOLLOWING, 10).await().atMost(WAIT).isEmpty());
        eventually(() -> !feed(a, null, 25).getList("items.pin.id").contains(old));
        JsonPath page = feed(a, null, 25);
        assertEquals(
                List.of(cPin), page.getList("items.pin.id"), "b's pins left pools and feed; the deleted pin is gone");
        assertTrue(!page.getList("items.pin.id").contains(fresh));
    }

    @Test
    void badInputIs4xx() {
        TestUser a = newUser();
        given().get("/v1/me/home-feed").then().statusCode(401);
        a.as().queryParam("limit", 0)
                .get("/v1/me/home-feed")
                .then()
                .statusCode(400)
                .body("error", equalTo("invalid_limit"));
        a.as().queryParam("limit", 101)
                .get("/v1/me/home-feed")
                .then()
                .statusCode(400)
                .body("error", equalTo("invalid_limit"));
        a.as().queryParam("limit", "ten")
                .get("/v1/me/home-feed")
                .then()
                .statusCode(400)
                .body("error", equalTo("invalid_limit"));
        a.as().queryParam("cursor", "nonsense")
                .get("/v1/me/home-feed")
                .then()
                .statusCode(400)
                .body("error", equalTo("invalid_cursor"));
        a.as().get("/v1/me/home-feed")
                .then()
                .statusCode(200)
                .body("items.size()", equalTo(0))
                .body("nextCursor", equalTo(null));
    }

    private static JsonPath feed(TestUser user, String cursor, int limit) {
        var request = user.as().queryParam("limit", limit);
        if (cursor != null) {
            request.queryParam("cursor", cursor);
        }
        return request.get("/v1/me/home-feed").then().statusCode(200).extract().jsonPath();
    }

    private static void eventually(BooleanSupplier condition) throws InterruptedException {
        Eventually.within(Eventually.JOBS_MS, condition);
    }
}
