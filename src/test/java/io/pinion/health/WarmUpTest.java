package io.pinion.health;

import static io.pinion.TestApi.createBoard;
import static io.pinion.TestApi.createPin;
import static io.pinion.TestApi.newUser;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.pinion.TestApi;
import io.pinion.TestApi.TestUser;
import io.pinion.Wait;
import io.pinion.id.PinionId;
import io.pinion.pins.WriteWarmUp;
import io.pinion.queue.work.WarmUpJobs;
import io.pinion.stack.StackTest;
import io.pinion.users.UserRepository;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;

/**
 * The start-up warm-up reads what exists through the instance's own HTTP server, anonymous and signed in, runs the
 * job queue's enqueue, dequeue and ack on its own queue (which takes no job over HTTP), reports the instance not
 * ready while it runs, ends on time, and leaves the data as it was.
 */
@QuarkusTest
@StackTest
@TestProfile(WarmUpTest.Short.class)
class WarmUpTest {

    public static class Short implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("pinion.warm-up.enabled", "true", "pinion.warm-up.duration", "4s",
                    "pinion.warm-up.requests", "3000", "pinion.warm-up.tokens", "50");
        }
    }

    private static final String WARM_UP = "checks.find { it.name == 'warm-up' }.data";

    @Inject
    WarmUp warmUp;

    @Inject
    WriteWarmUp writes;

    @Inject
    UserRepository users;

    @Test
    void readsTheNewestObjectsWhileNotReadyAndChangesNothing() throws Exception {
        awaitDone();
        TestUser author = newUser();
        TestUser follower = newUser();
        String board = createBoard(author, "warmed up");
        String pin = createPin(author, board, "read by the warm-up");
        follower.as().put("/v1/me/following/users/" + author.id()).then().statusCode(200);
        String authorBefore = given().get("/v1/users/" + author.id()).then().statusCode(200).extract().asString();
        String followerBefore = given().get("/v1/users/" + follower.id()).then().statusCode(200).extract().asString();
        String pinBefore = given().get("/v1/pins/" + pin).then().statusCode(200).extract().asString();

        warmUp.start();
        JsonPath running = given().get("/q/health/ready").then().statusCode(503).extract().jsonPath();
        assertEquals("running", running.getString(WARM_UP + ".state"));
        long started = System.currentTimeMillis();
        JsonPath done = awaitDone();
        long tookMs = System.currentTimeMillis() - started;
        System.out.printf("warm-up: %d ms, %s%n", tookMs, warmUp.outcomes());

        assertTrue(tookMs < 10_000, "ended within its duration: " + tookMs + " ms");
        Map<String, Long> outcomes = warmUp.outcomes();
        assertTrue(outcomes.get("ok") > 100, "reads answered: " + outcomes);
        assertEquals(0L, outcomes.get("server_error"), outcomes.toString());
        assertEquals(0L, outcomes.get("failed"), outcomes.toString());
        assertEquals(warmUp.sent(), done.getLong(WARM_UP + ".requests"));
        assertEquals(outcomes.get("ok"), done.getLong(WARM_UP + ".ok"));
        assertEquals(authorBefore, given().get("/v1/users/" + author.id()).then().statusCode(200).extract().asString(),
                "the users the warm-up read are unchanged");
        assertEquals(
                followerBefore,
                given().get("/v1/users/" + follower.id())
                        .then()
                        .statusCode(200)
                        .extract()
                        .asString());
        assertEquals(pinBefore, given().get("/v1/pins/" + pin).then().statusCode(200).extract().asString());

        // the job queue's round: jobs of the warm-up's own queue enqueued, leased and acked, none left behind
        TestUser admin = TestApi.admin();
        AtomicReference<JsonPath> stats = new AtomicReference<>();
        Wait.within(15_000, () -> {
            stats.set(admin.as().get("/v1/queues/" + WarmUpJobs.QUEUE + "/stats").then().statusCode(200)
                    .extract().jsonPath());
            return stats.get().getLong("counts.PENDING") == 0 && stats.get().getLong("counts.RUNNING") == 0;
        }, () -> "every job of the warm-up's queue acked: " + stats.get().prettify());
        assertTrue(stats.get().getLong("counts.SUCCEEDED") >= 110, "jobs of rounds acked: " + stats.get().prettify());
        assertEquals(0L, stats.get().getLong("counts.FAILED"));
        admin.as().contentType("application/json").body("{\"body\":\"x\"}")
                .post("/v1/queues/" + WarmUpJobs.QUEUE + "/jobs").then().statusCode(403);

        // the writes' rounds, on the warm-up's own accounts: every round ran (a failed one counts as failed,
        // above), and they end where they began: nobody followed, no pin left on either account's board
        System.out.printf("write rounds: %d%n", writes.rounds());
        assertTrue(writes.rounds() >= 3, "write rounds made: " + writes.rounds());
        for (String name : new String[] { "pinion-warm-up-follower", "pinion-warm-up-author" }) {
            PinionId account = users.findIdByUsername(name).await().indefinitely();
            assertTrue(account != null, name + " exists");
            JsonPath profile = given().get("/v1/users/" + account).then().statusCode(200).extract().jsonPath();
            assertEquals(0L, profile.getLong("counts.following"), name + " follows nobody: " + profile.prettify());
            assertEquals(0L, profile.getLong("counts.followedBoards"), name + " follows no board");
            assertEquals(0L, profile.getLong("counts.likes"), name + " likes nothing");
            String ownBoard = given().get("/v1/users/" + account + "/boards?limit=5").then().statusCode(200)
                    .extract().jsonPath().getString("items[0].id");
            assertEquals(0, given().get("/v1/boards/" + ownBoard + "/pins?limit=25").then().statusCode(200)
                    .extract().jsonPath().getList("items").size(), name + "'s board keeps no pin");
        }
        // nobody can sign up under their names (the API's usernames have no '-')
        given().contentType("application/json")
                .body("{\"username\":\"pinion-warm-up-author\",\"password\":\"password-1234\"}")
                .post("/v1/users").then().statusCode(400);
    }

    private static JsonPath awaitDone() throws InterruptedException {
        AtomicReference<JsonPath> ready = new AtomicReference<>();
        Wait.within(30_000, () -> {
            ready.set(given().get("/q/health/ready").then().extract().jsonPath());
            return "done".equals(ready.get().getString(WARM_UP + ".state"));
        }, "the warm-up's end");
        assertEquals("UP", ready.get().getString("status"));
        return ready.get();
    }
}
