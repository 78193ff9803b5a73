package io.pinion.feed;

import static io.pinion.TestApi.createBoard;
import static io.pinion.TestApi.createPin;
import static io.pinion.TestApi.newUser;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
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
import io.pinion.feed.store.PulledAuthors;
import io.pinion.graph.RecentPin;
import io.pinion.graph.RecentPins;
import io.pinion.stack.StackTest;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;

/**
 * Push and pull together, with the pull threshold at 3 receivers: a board with more receivers is pulled (its pins
 * go to the author's recent pins, never into pools), followers read it at their next visit merged with their pushed
 * pools, by score, each pin once; unfollowed and unfollowed-board rules hold for pulled pins; and a board crossing
 * the threshold in either direction loses and duplicates nothing.
 */
@QuarkusTest
@StackTest
@TestProfile(HybridFeedTest.LowPullThreshold.class)
class HybridFeedTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    /** Boards with more than 3 receivers are pulled. */
    public static class LowPullThreshold implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("pinion.feed.pull-threshold", "3");
        }
    }

    @Inject
    PoolStore pools;
    @Inject
    RecentPins recentPins;
    @Inject
    PulledAuthors pulledAuthors;
    @Inject
    MaterializedFeed materialized;

    @Test
    void aBoardAboveTheThresholdIsPulledAndEachFollowerReadsWhatTheyReceive() throws Exception {
        TestUser author = newUser();
        String x = createBoard(author, "x");
        String y = createBoard(author, "y");
        List<TestUser> fans = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            TestUser fan = newUser();
            fan.as().put("/v1/me/following/users/" + author.id()).then().statusCode(200);
            fans.add(fan);
        }
        TestUser skipsX = fans.get(1);
        skipsX.as().delete("/v1/me/following/boards/" + x).then().statusCode(200);
        TestUser onlyY = newUser();
        onlyY.as().put("/v1/me/following/boards/" + y).then().statusCode(200);

        long onX = Long.parseLong(createPin(author, x, "on x"));
        long onY = Long.parseLong(createPin(author, y, "on y"));
        Set<Long> indexed = new HashSet<>();
        recentPins.newest(recentPins.author(Long.parseLong(author.id())), 0, 10).await().atMost(WAIT)
                .forEach(pin -> indexed.add(pin.pin()));
        assertEquals(Set.of(onX, onY), indexed, "pulled: in the author's recent pins as the request returns");
        assertTrue(pulledAuthors.contains(Long.parseLong(author.id())));

        assertEquals(Set.of(Long.toString(onX), Long.toString(onY)), fresh(fans.get(0)));
        assertEquals(Set.of(Long.toString(onY)), fresh(skipsX), "not the pins of a board the follower unfollowed");
        assertEquals(Set.of(Long.toString(onY)), fresh(onlyY), "a board follower reads that board's pins only");
        for (TestUser fan : fans) {
            assertTrue(pools.top(Long.parseLong(fan.id()), FeedSource.FOLLOWING, 10).await().atMost(WAIT).stream()
                    .noneMatch(e -> e.key().pin() == onX || e.key().pin() == onY), "nothing was pushed");
        }
    }

    @Test
    void pushedAndPulledPinsMergeBestFirstAndNoPinShowsTwice() throws Exception {
        TestUser heavy = newUser();
        TestUser light = newUser();
        TestUser reader = newUser();
        String heavyBoard = createBoard(heavy, "heavy");
        String lightBoard = createBoard(light, "light");
        reader.as().put("/v1/me/following/users/" + light.id()).then().statusCode(200);
        reader.as().put("/v1/me/following/users/" + heavy.id()).then().statusCode(200);
        for (int i = 0; i < 3; i++) {
            newUser().as().put("/v1/me/following/users/" + heavy.id()).then().statusCode(200);
        }
        String topic = "hybrid-" + UUID.randomUUID().toString().substring(0, 8);
        reader.as().put("/v1/me/following/interests/" + topic).then().statusCode(200);
        long reader_ = Long.parseLong(reader.id());

        String pushed = createPin(light, lightBoard, "pushed");
        eventually(() -> pooled(reader_).contains(Long.parseLong(pushed)));
        String pulled = createPin(heavy, heavyBoard, "pulled");
        String both = heavy.as()
                .body(Map.of(
                        "boardId",
                        heavyBoard,
                        "description",
                        "pulled twice",
                        "imageUrl",
                        "https://img.example.com/" + UUID.randomUUID() + ".jpg",
                        "interests",
                        List.of(topic)))
                .post("/v1/pins")
                .then()
                .statusCode(201)
                .extract()
                .<String>path("id");

        JsonPath page = feed(reader);
        assertEquals(List.of(both, pulled, pushed), page.getList("items.pin.id"),
                "newest (best) first across the pushed pool and the pulled sources, the pin of two sources once");
        assertEquals(List.of(true, true, true), page.getList("items.fresh"));
        assertEquals("following", page.getString("items[0].source"));
        eventually(() -> materialized.all(reader_).await().atMost(WAIT).size() == 3);

        JsonPath again = feed(reader);
        assertEquals(List.of(both, pulled, pushed), again.getList("items.pin.id"), "shown once: nothing fresh again");
        assertEquals(List.of(false, false, false), again.getList("items.fresh"));
    }

    @Test
    void crossingTheThresholdInEitherDirectionLosesAndDuplicatesNothing() throws Exception {
        TestUser author = newUser();
        String board = createBoard(author, "crossing");
        TestUser reader = newUser();
        long reader_ = Long.parseLong(reader.id());
        List<TestUser> others = List.of(newUser(), newUser(), newUser());
        reader.as().put("/v1/me/following/users/" + author.id()).then().statusCode(200);
        others.get(0).as().put("/v1/me/following/users/" + author.id()).then().statusCode(200);
        others.get(1).as().put("/v1/me/following/users/" + author.id()).then().statusCode(200);

        long below = Long.parseLong(createPin(author, board, "3 receivers: pushed"));
        eventually(() -> pooled(reader_).contains(below));
        others.get(2).as().put("/v1/me/following/users/" + author.id()).then().statusCode(200);
        long above = Long.parseLong(createPin(author, board, "4 receivers: pulled"));
        assertFalse(pooled(reader_).contains(above));
        assertTrue(recentPins.newest(recentPins.author(Long.parseLong(author.id())), 0, 10).await().atMost(WAIT)
                .stream().map(RecentPin::pin).anyMatch(pin -> pin == above));

        assertEquals(List.of(Long.toString(above), Long.toString(below)), feed(reader).getList("items.pin.id"));
        eventually(() -> materialized.all(reader_).await().atMost(WAIT).size() == 2);

        others.get(2).as().delete("/v1/me/following/users/" + author.id()).then().statusCode(200);
        long belowAgain = Long.parseLong(createPin(author, board, "3 receivers again: pushed"));
        eventually(() -> pooled(reader_).contains(belowAgain));
        JsonPath page = feed(reader);
        assertEquals(List.of(Long.toString(belowAgain), Long.toString(above), Long.toString(below)),
                page.getList("items.pin.id"), "the pulled pin stays readable after the board went back to push, once");
        assertEquals(List.of(true, false, false), page.getList("items.fresh"));
    }

    private Set<String> fresh(TestUser user) {
        return Set.copyOf(feed(user).getList("items.findAll { it.fresh }.pin.id"));
    }

    private List<Long> pooled(long user) {
        return pools.top(user, FeedSource.FOLLOWING, 100).await().atMost(WAIT).stream()
                .map(e -> e.key().pin())
                .toList();
    }

    private static JsonPath feed(TestUser user) {
        return user.as().queryParam("limit", 25).get("/v1/me/home-feed").then().statusCode(200).extract().jsonPath();
    }

    private static void eventually(BooleanSupplier condition) throws InterruptedException {
        Eventually.within(Eventually.JOBS_MS, condition);
    }
}
