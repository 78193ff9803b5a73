package io.pinion.feed;

import static io.pinion.TestApi.createBoard;
import static io.pinion.TestApi.createPin;
import static io.pinion.TestApi.newUser;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.Map;
import java.util.UUID;

import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.Test;

import io.pinion.TestApi.TestUser;
import io.pinion.feed.fanout.FanoutWorker;
import io.pinion.feed.fanout.FeedJobs;
import io.pinion.feed.fanout.FollowEventWorker;
import io.pinion.feed.store.PoolStore;
import io.pinion.graph.FollowEvent;
import io.pinion.graph.FollowEvents;
import io.pinion.graph.RecentPins;
import io.pinion.id.PinionId;
import io.pinion.queue.LeasedJob;
import io.pinion.stack.StackTest;
import io.quarkus.test.junit.QuarkusTest;

/**
 * A new pin reaches the following pool of every receiver of its board (followers of the owner who did not unfollow
 * the board, and followers of the board itself) — never the author's, never an unfollower's — through the fan-out
 * jobs; its interests' recent pins hold it for their followers to pull.
 */
@QuarkusTest
@StackTest
class FanoutTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @Inject
    PoolStore pools;

    @Inject
    FollowEventWorker followEvents;

    @Inject
    RecentPins recentPins;

    @Inject
    FanoutWorker fanout;

    @Test
    void aNewPinReachesThePoolsOfItsReceiversOnly() throws Exception {
        TestUser author = newUser();
        TestUser fan = newUser();
        TestUser boardFan = newUser();
        TestUser unfollower = newUser();
        TestUser topicFan = newUser();
        String board = createBoard(author, "fanned out");
        fan.as().put("/v1/me/following/users/" + author.id()).then().statusCode(200);
        unfollower.as().put("/v1/me/following/users/" + author.id()).then().statusCode(200);
        unfollower.as().delete("/v1/me/following/boards/" + board).then().statusCode(200);
        boardFan.as().put("/v1/me/following/boards/" + board).then().statusCode(200);
        String topic = "fanout " + UUID.randomUUID().toString().substring(0, 8);
        topicFan.as().put("/v1/me/following/interests/" + topic).then().statusCode(200);
        author.as().put("/v1/me/following/interests/" + topic).then().statusCode(200);

        String pin = author.as()
                .body(Map.of(
                        "boardId",
                        board,
                        "description",
                        "to every receiver",
                        "imageUrl",
                        "https://img.example.com/" + UUID.randomUUID() + ".jpg",
                        "interests",
                        List.of(topic)))
                .post("/v1/pins")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        long pinId = Long.parseLong(pin);

        assertEventually(
                () -> contains(fan, FeedSource.FOLLOWING, pinId) && contains(boardFan, FeedSource.FOLLOWING, pinId));
        assertTrue(
                recentPins.newest(recentPins.interest(topic), 0, 10).await().atMost(WAIT).stream()
                        .anyMatch(recent -> recent.pin() == pinId),
                "interests are pulled: the pin is in the interest's recent pins");
        PoolEntry entry = pools.top(Long.parseLong(fan.id()), FeedSource.FOLLOWING, 10).await().atMost(WAIT).get(0);
        assertEquals(Long.parseLong(author.id()), entry.author());
        assertEquals(Long.parseLong(board), entry.board());
        assertTrue(entry.key().score() > 0);

        String second = createPin(author, board, "another one");
        assertEventually(() -> contains(fan, FeedSource.FOLLOWING, Long.parseLong(second)));
        for (FeedSource source : FeedSource.values()) {
            assertTrue(
                    pools.top(Long.parseLong(unfollower.id()), source, 10)
                            .await()
                            .atMost(WAIT)
                            .isEmpty(),
                    "unfollowed the board");
            assertTrue(
                    pools.top(Long.parseLong(author.id()), source, 10)
                            .await()
                            .atMost(WAIT)
                            .isEmpty(),
                    "never the author");
        }
    }

    @Test
    void aFollowBackfillHandledAfterABoardUnfollowLeavesThatBoardOut() throws Exception {
        TestUser author = newUser();
        TestUser follower = newUser();
        TestUser witness = newUser();
        String kept = createBoard(author, "kept");
        String dropped = createBoard(author, "dropped");
        witness.as().put("/v1/me/following/users/" + author.id()).then().statusCode(200);
        long keptPin = Long.parseLong(createPin(author, kept, "kept pin"));
        long droppedPin = Long.parseLong(createPin(author, dropped, "dropped pin"));
        // both fan-outs are done before the follower arrives
        assertEventually(() -> contains(witness, FeedSource.FOLLOWING, keptPin)
                && contains(witness, FeedSource.FOLLOWING, droppedPin));
        follower.as().put("/v1/me/following/users/" + author.id()).then().statusCode(200);
        follower.as().delete("/v1/me/following/boards/" + dropped).then().statusCode(200);
        // the two events take their course (the backfill holds the kept pin only once it ran, and the board
        // unfollow's cleanup follows it when the backfill ran first)
        assertEventually(() -> contains(follower, FeedSource.FOLLOWING, keptPin)
                && !contains(follower, FeedSource.FOLLOWING, droppedPin));
        // a follow event handled late, after the board unfollow (e.g. retried)
        FollowEvent late = new FollowEvent("follow_user", follower.id(), author.id(), author.id(), 0);
        byte[] body = new ObjectMapper().writeValueAsBytes(late);
        followEvents
                .handle(new LeasedJob(
                        PinionId.parse(follower.id()), FollowEvents.QUEUE, null, 0, body, 1, 1L, 1, 0, 0, 0))
                .await()
                .atMost(WAIT);
        assertTrue(contains(follower, FeedSource.FOLLOWING, keptPin), "backfilled");
        assertTrue(!contains(follower, FeedSource.FOLLOWING, droppedPin), "the unfollowed board stays out");
    }

    @Test
    void aSavedPinIsPushedToTheSaversFollowersAsTheirOwnPin() throws Exception {
        TestUser author = newUser();
        TestUser saver = newUser();
        TestUser fan = newUser();
        fan.as().put("/v1/me/following/users/" + saver.id()).then().statusCode(200);
        String original = createPin(author, createBoard(author, "original"), "worth saving");
        String saverBoard = createBoard(saver, "saved");
        String saved = saver.as().body(Map.of("boardId", saverBoard)).post("/v1/pins/" + original + "/saves")
                .then().statusCode(201).extract().path("id");
        long savedId = Long.parseLong(saved);
        assertEventually(() -> contains(fan, FeedSource.FOLLOWING, savedId));
        PoolEntry entry = pools.top(Long.parseLong(fan.id()), FeedSource.FOLLOWING, 10).await().atMost(WAIT).stream()
                .filter(e -> e.key().pin() == savedId).findFirst().orElseThrow();
        assertEquals(Long.parseLong(saver.id()), entry.author(), "the saver's pin on the saver's board");
        assertEquals(Long.parseLong(saverBoard), entry.board());
        assertTrue(
                !contains(fan, FeedSource.FOLLOWING, Long.parseLong(original)),
                "not the original, whose author fan does not follow");
    }

    @Test
    void likingOrSavingAPinFillsTheRelatedPoolWithItsBoardsRecentPins() throws Exception {
        TestUser author = newUser();
        TestUser liker = newUser();
        String board = createBoard(author, "related");
        String a = createPin(author, board, "a");
        String b = createPin(author, board, "b");
        String liked = createPin(author, board, "liked");
        liker.as().put("/v1/pins/" + liked + "/like").then().statusCode(200);
        assertEventually(() -> contains(liker, FeedSource.RELATED, Long.parseLong(a))
                && contains(liker, FeedSource.RELATED, Long.parseLong(b)));
        assertTrue(!contains(liker, FeedSource.RELATED, Long.parseLong(liked)), "not the liked pin itself");
    }

    @Test
    void aReceiverWhoLikedTheAuthorsPinsScoresTheAuthorsNewPinHigher() throws Exception {
        TestUser author = newUser();
        TestUser fan = newUser();
        TestUser other = newUser();
        String board = createBoard(author, "affinity");
        fan.as().put("/v1/me/following/users/" + author.id()).then().statusCode(200);
        other.as().put("/v1/me/following/users/" + author.id()).then().statusCode(200);
        long earlier = Long.parseLong(createPin(author, board, "earlier"));
        String liked = createPin(author, board, "liked");
        fan.as().put("/v1/pins/" + liked + "/like").then().statusCode(200);
        // the related job counts the like first, then fills the related pool with the board's other pins
        assertEventually(() -> contains(fan, FeedSource.RELATED, earlier));
        long pin = Long.parseLong(createPin(author, board, "new"));
        assertEventually(() -> contains(fan, FeedSource.FOLLOWING, pin) && contains(other, FeedSource.FOLLOWING, pin));
        assertTrue(score(fan, pin) > score(other, pin), "affinity lifts the score");
    }

    /**
     * Bodies in the shape feed-fanout jobs had before one type per kind of work (exactly the JSON an earlier version
     * wrote, no {@code kind}) still run: a purge page takes the pin out of a receiver's pool, a page still to be routed
     * pushes it back, and an interest page indexes it.
     */
    @Test
    void jobsQueuedInTheEarlierBodyShapeStillRun() throws Exception {
        TestUser author = newUser();
        TestUser fan = newUser();
        fan.as().put("/v1/me/following/users/" + author.id()).then().statusCode(200);
        String board = createBoard(author, "earlier shape");
        String pin = createPin(author, board, "queued long ago");
        long pinId = Long.parseLong(pin);
        assertEventually(() -> contains(fan, FeedSource.FOLLOWING, pinId));

        String fields = "\"pin\":\"" + pin + "\",\"board\":\"" + board + "\",\"author\":\"" + author.id() + "\"";
        PinionId jobId = PinionId.parse(pin); // any id: the worker reads only the body
        runFanout(jobId, "{" + fields + ",\"created\":0,\"scoredAt\":0,\"source\":\"following\",\"interest\":null,"
                + "\"cursor\":null,\"purge\":true,\"route\":false}");
        assertEventually(() -> !contains(fan, FeedSource.FOLLOWING, pinId));

        long now = System.currentTimeMillis();
        runFanout(jobId, "{" + fields + ",\"created\":" + now + ",\"scoredAt\":" + now + ",\"source\":\"following\","
                + "\"interest\":null,\"cursor\":null,\"purge\":false,\"route\":true}");
        assertEventually(() -> contains(fan, FeedSource.FOLLOWING, pinId));

        String topic = "earlier " + UUID.randomUUID().toString().substring(0, 8);
        runFanout(
                jobId,
                "{" + fields + ",\"created\":" + now + ",\"scoredAt\":0,\"source\":\"interests\",\"interest\":\""
                        + topic + "\",\"cursor\":null,\"purge\":false,\"route\":true}");
        assertTrue(recentPins.newest(recentPins.interest(topic), 0, 10).await().atMost(WAIT).stream()
                .anyMatch(recent -> recent.pin() == pinId), "the interest's recent pins hold the pin");
    }

    private void runFanout(PinionId id, String body) {
        fanout.handle(new LeasedJob(id, FeedJobs.FANOUT, null, 0, body.getBytes(StandardCharsets.UTF_8), 1,
                1L, 1, 0, 0, 0)).await().atMost(WAIT);
    }

    private double score(TestUser user, long pin) {
        return pools.top(Long.parseLong(user.id()), FeedSource.FOLLOWING, 100).await().atMost(WAIT).stream()
                .filter(entry -> entry.key().pin() == pin).findFirst().orElseThrow().key().score();
    }

    private boolean contains(TestUser user, FeedSource source, long pin) {
        return pools.top(Long.parseLong(user.id()), source, 100).await().atMost(WAIT).stream()
                .anyMatch(entry -> entry.key().pin() == pin);
    }

    private static void assertEventually(BooleanSupplier condition) throws InterruptedException {
        Eventually.within(Eventually.JOBS_MS, condition);
    }
}
