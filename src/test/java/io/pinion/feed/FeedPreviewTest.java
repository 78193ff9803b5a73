package io.pinion.feed;

import static io.pinion.TestApi.createBoard;
import static io.pinion.TestApi.createPin;
import static io.pinion.TestApi.newUser;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.MeterRegistry;
import io.pinion.TestApi.TestUser;
import io.pinion.Wait;
import io.pinion.feed.read.HomeFeedService;
import io.pinion.feed.store.FeedStates;
import io.pinion.feed.store.MaterializedFeed;
import io.pinion.feed.store.PoolStore;
import io.pinion.id.PinionId;
import io.pinion.stack.StackTest;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The warm-up's preview of a home feed reads what a first page reads and changes nothing: the pools keep every row,
 * nothing is materialized, no visit is recorded and the funnel counts nothing; the user's real first page afterwards
 * is the one it would have been.
 */
@QuarkusTest
@StackTest
class FeedPreviewTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @Inject
    HomeFeedService feed;
    @Inject
    PoolStore pools;
    @Inject
    MaterializedFeed materialized;
    @Inject
    FeedStates states;
    @Inject
    MeterRegistry registry;

    @Test
    void aPreviewShowsWhatAFirstPageWouldAndChangesNothing() throws Exception {
        TestUser reader = newUser();
        TestUser author = newUser();
        String board = createBoard(author, "previewed");
        reader.as().put("/v1/me/following/users/" + author.id()).then().statusCode(200);
        long user = Long.parseLong(reader.id());
        for (int i = 0; i < 10; i++) {
            createPin(author, board, "pin " + i);
        }
        Eventually.within(Eventually.JOBS_MS,
                () -> pools.top(user, FeedSource.FOLLOWING, 100).await().atMost(WAIT).size() == 10);
        FunnelCounts before = FunnelCounts.of(registry);

        int items = feed.preview(PinionId.parse(reader.id()), 25).await().atMost(WAIT);

        assertEquals(8, items, "the chunk a first page would show: 10 pooled, 20% held back");
        Wait.pause(Duration.ofSeconds(1), "anything the preview had set off would have run by then");
        assertEquals(10, pools.top(user, FeedSource.FOLLOWING, 100).await().atMost(WAIT).size(), "the pools are whole");
        assertTrue(materialized.all(user).await().atMost(WAIT).isEmpty(), "nothing materialized");
        assertNull(states.read(user).await().atMost(WAIT).lastVisit(), "no visit recorded");
        FunnelCounts delta = FunnelCounts.of(registry).since(before);
        // counted on the request path only; "consumed" and "persisted" are also counted by feed jobs other tests left
        // running, so what the preview did not set off is checked on the user's own rows above
        assertEquals(0, delta.get("shown") + delta.get("candidate"), delta.toString());

        List<Boolean> fresh = reader.as().queryParam("limit", 25).get("/v1/me/home-feed").then().statusCode(200)
                .extract().jsonPath().getList("items.fresh", Boolean.class);
        assertEquals(8, fresh.stream().filter(f -> f).count(), "the real first page brings the same chunk");
    }
}
