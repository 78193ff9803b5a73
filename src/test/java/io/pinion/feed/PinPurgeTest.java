package io.pinion.feed;

import static io.pinion.TestApi.createBoard;
import static io.pinion.TestApi.createPin;
import static io.pinion.TestApi.newUser;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.pinion.TestApi.TestUser;
import io.pinion.feed.store.MaterializedFeed;
import io.pinion.feed.store.PoolStore;
import io.pinion.stack.StackTest;
import io.quarkus.test.junit.QuarkusTest;

/**
 * A deleted pin leaves every feed page at once (read-time filter), and a purge job then removes its rows from the
 * pools and the materialized feeds of its receivers; the other pins stay.
 */
@QuarkusTest
@StackTest
class PinPurgeTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @Inject
    PoolStore pools;

    @Inject
    MaterializedFeed materialized;

    @Test
    void aDeletedPinIsPurgedFromPoolsAndMaterializedFeeds() throws Exception {
        TestUser author = newUser();
        TestUser visitor = newUser();
        TestUser absent = newUser();
        String board = createBoard(author, "purged");
        visitor.as().put("/v1/me/following/users/" + author.id()).then().statusCode(200);
        absent.as().put("/v1/me/following/boards/" + board).then().statusCode(200);
        long doomed = Long.parseLong(createPin(author, board, "to be deleted"));
        long kept = Long.parseLong(createPin(author, board, "kept"));
        long visitorId = Long.parseLong(visitor.id());
        long absentId = Long.parseLong(absent.id());
        eventually(() -> pool(visitorId).containsAll(List.of(doomed, kept))
                && pool(absentId).containsAll(List.of(doomed, kept)));
        visitor.as().queryParam("limit", 10).get("/v1/me/home-feed").then().statusCode(200);
        eventually(() -> shown(visitorId).containsAll(List.of(doomed, kept)));

        author.as().delete("/v1/pins/" + doomed).then().statusCode(204);
        List<String> page = visitor.as().queryParam("limit", 10).get("/v1/me/home-feed").then().statusCode(200)
                .extract().jsonPath().getList("items.pin.id");
        assertEquals(List.of(Long.toString(kept)), page, "gone from the page at once");

        eventually(() -> !shown(visitorId).contains(doomed) && !pool(absentId).contains(doomed));
        assertTrue(shown(visitorId).contains(kept), "the other pin stays shown");
        assertTrue(pool(absentId).contains(kept), "the other pin stays pooled");
    }

    @Test
    void aDeletedPinLeavesTheRelatedPoolsOfUsersWhoTookItsBoardsPins() throws Exception {
        TestUser author = newUser();
        TestUser liker = newUser();
        String board = createBoard(author, "related purge");
        long doomed = Long.parseLong(createPin(author, board, "related, then deleted"));
        long kept = Long.parseLong(createPin(author, board, "related, kept"));
        String liked = createPin(author, board, "liked");
        liker.as().put("/v1/pins/" + liked + "/like").then().statusCode(200);
        long likerId = Long.parseLong(liker.id());
        eventually(() -> related(likerId).containsAll(List.of(doomed, kept)));

        author.as().delete("/v1/pins/" + doomed).then().statusCode(204);
        eventually(() -> !related(likerId).contains(doomed));
        assertTrue(related(likerId).contains(kept), "the board's other pin stays");
    }

    private List<Long> related(long user) {
        return pools.top(user, FeedSource.RELATED, 100).await().atMost(WAIT).stream().map(e -> e.key().pin()).toList();
    }

    private List<Long> pool(long user) {
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
