package io.pinion.feed;

import static io.pinion.TestApi.createBoard;
import static io.pinion.TestApi.newUser;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.MeterRegistry;
import io.pinion.TestApi.TestUser;
import io.pinion.TestApi;
import io.pinion.Wait;
import io.pinion.feed.fanout.FeedJobs;
import io.pinion.feed.store.FeedStates;
import io.pinion.feed.store.PoolStore;
import io.pinion.stack.StackTest;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/**
 * The delivery funnel adds up. A controlled set of users and pins (pull threshold 3, quality bar 50) goes through
 * every stage from creation to display, and the counts taken between two quiet moments match both the numbers this
 * set must give and the sums that hold for any traffic:
 * <ul>
 * <li>pins created = pins routed (pushed + pulled + nobody);</li>
 * <li>receivers paged = rows pushed + receivers skipped as inactive;</li>
 * <li>candidates = dropped (every reason) + held back + shown, per source;</li>
 * <li>persisted = shown + dropped as deleted at hydration; carried = pulled pins held back; consumed by chunks = pool
 * candidates − pool rows held back;</li>
 * <li>pool rows written − pool rows removed = the rows left in these users' pools, read from HBase.</li>
 * </ul>
 * Only this class drives traffic while it runs; it waits for the feed's queues to be empty before each snapshot.
 */
@QuarkusTest
@StackTest
@TestProfile(DeliveryProfile.class)
class FunnelBalanceTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final List<String> QUEUES = Eventually.FEED_QUEUES;

    @Inject
    MeterRegistry registry;
    @Inject
    FeedStates states;
    @Inject
    PoolStore pools;

    @Test
    void everyPinAndRowIsAccountedForFromCreationToDisplay() throws Exception {
        TestUser admin = TestApi.admin();
        TestUser heavy = newUser();
        TestUser author = newUser();
        TestUser loner = newUser();
        TestUser f1 = newUser();
        TestUser f2 = newUser();
        TestUser away = newUser();
        TestUser f4 = newUser();
        String interest = "funnel" + UUID.randomUUID().toString().substring(0, 8);
        String heavyBoard = createBoard(heavy, "heavy");
        String authorBoard = createBoard(author, "author");
        String lonerBoard = createBoard(loner, "nobody follows this");
        for (TestUser fan : List.of(f1, f2, away)) {
            follow(fan, author);
        }
        for (TestUser fan : List.of(f1, f2, away, f4)) {
            follow(fan, heavy);
        }
        f1.as().put("/v1/me/following/interests/" + interest).then().statusCode(200);
        states.recordVisits(Map.of(
                        Long.parseLong(away.id()),
                        System.currentTimeMillis() - Duration.ofDays(30).toMillis()))
                .await()
                .atMost(WAIT);
        idle(admin);
        FunnelCounts before = FunnelCounts.of(registry);

        // the heavy author's board has 4 receivers (> 3): pulled; the author's has 3: pushed, the inactive one skipped
        pin(heavy, heavyBoard, List.of());
        pin(heavy, heavyBoard, List.of());
        pin(author, authorBoard, List.of());
        pin(author, authorBoard, List.of(interest));
        String deleted = pin(author, authorBoard, List.of());
        pin(loner, lonerBoard, List.of());
        idle(admin);
        pause(admin, FeedJobs.PURGE, true);
        try {
            author.as().delete("/v1/pins/" + deleted).then().statusCode(204);
            // each visit: 3 pushed rows + 2 pulled pins in following; f1 also the interest pin, worth 40 < 50
            for (TestUser fan : List.of(f1, f2)) {
                fan.as().queryParam("limit", 25).get("/v1/me/home-feed").then().statusCode(200);
            }
            Eventually.idle(admin, List.of(FeedJobs.FANOUT, FeedJobs.PERSIST));
        } finally {
            pause(admin, FeedJobs.PURGE, false);
        }
        idle(admin);
        FunnelCounts delta = FunnelCounts.of(registry).since(before);

        // the sums that hold for any traffic
        assertEquals(delta.get("created"), delta.get("routed", "following", null), delta.toString());
        assertEquals(
                delta.get("paged"), delta.get("pushed") + delta.get("skipped", null, "inactive"), delta.toString());
        for (FeedSource source : FeedSource.values()) {
            String s = source.label();
            assertEquals(delta.get("candidate", s, null),
                    delta.get("dropped", s, null) + delta.get("held_back", s, null) + delta.get("shown", s, null),
                    s + " " + delta);
            assertEquals(
                    delta.get("persisted", s, null),
                    delta.get("shown", s, null) + delta.get("dropped", s, "deleted"),
                    s + " " + delta);
            assertEquals(delta.get("carried", s, null), delta.get("held_back", s, "pulled"), s + " " + delta);
            assertEquals(delta.get("consumed", s, "none"),
                    delta.get("candidate", s, "pool") - delta.get("held_back", s, "pool"), s + " " + delta);
        }
        long written = delta.get("pushed") + delta.get("pooled") + delta.get("carried");
        long removed = delta.get("consumed") + delta.get("purged", null, "pool") + delta.get("trimmed")
                + delta.get("unfollowed", null, "pool");
        long left = 0;
        for (TestUser user : List.of(f1, f2, away, f4)) {
            left += pools.everything(Long.parseLong(user.id())).await().atMost(WAIT).size();
        }
        assertEquals(left, written - removed, "rows left in the pools; " + delta);

        // the numbers this set must give
        assertEquals(6, delta.get("created"));
        assertEquals(3, delta.get("routed", "following", "pushed"));
        assertEquals(2, delta.get("routed", "following", "pulled"));
        assertEquals(1, delta.get("routed", "following", "nobody"));
        assertEquals(1, delta.get("routed", "interests", "pulled"));
        assertEquals(9, delta.get("paged"));
        assertEquals(6, delta.get("pushed"));
        assertEquals(3, delta.get("skipped", "following", "inactive"));
        assertEquals(8, delta.get("skipped", "following", "pulled_author"), "2 pulled pins x 4 receivers");
        assertEquals(6, delta.get("candidate", "following", "pool"));
        assertEquals(4, delta.get("candidate", "following", "pulled"));
        assertEquals(1, delta.get("candidate", "interests", "pulled"));
        assertEquals(1, delta.get("dropped", "interests", "below_bar"));
        assertEquals(2, delta.get("dropped", "following", "deleted"));
        assertEquals(2, delta.get("held_back", "following", "pulled"), "the oldest pulled pin of each visit");
        assertEquals(6, delta.get("shown", "following", null));
        assertEquals(8, delta.get("persisted"));
        assertEquals(2, delta.get("carried"));
        assertEquals(6, delta.get("consumed"));
        assertEquals(0, delta.get("purged", null, "pool"), "the deleted pin's rows were consumed by the visits");
        assertEquals(2, delta.get("purged", null, "materialized"));
        assertEquals(0, delta.get("pooled") + delta.get("trimmed") + delta.get("unfollowed"));
        assertEquals(2, left, "each visitor keeps the held-back pulled pin");
    }

    private static void follow(TestUser fan, TestUser author) {
        fan.as().put("/v1/me/following/users/" + author.id()).then().statusCode(200);
    }

    private static String pin(TestUser user, String board, List<String> interests) {
        return user.as().body(Map.of("boardId", board, "description", "funnel", "link", "https://example.com/f",
                        "imageUrl", "https://img.example.com/f.jpg", "interests", interests))
                .post("/v1/pins").then().statusCode(201).extract().path("id");
    }

    /** Pauses (rate limit 0) or resumes a queue; an instance applies a change within a second. */
    private static void pause(TestUser admin, String queue, boolean paused) throws InterruptedException {
        Map<String, Object> change = paused ? Map.of("rateLimit", 0) : Map.of("unlimited", true);
        admin.as().body(change).patch("/v1/queues/" + queue).then().statusCode(200);
        Wait.pause(Duration.ofSeconds(1), "every instance applies the change within a second");
    }

    /** Waits until no job of the feed's queues is pending or running. */
    private static void idle(TestUser admin) throws InterruptedException {
        Eventually.idle(admin, QUEUES);
    }
}
