package io.pinion.seed;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.pinion.id.PinionId;
import io.pinion.stack.StackTest;
import io.pinion.users.UserRepository;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

/**
 * A small seed into the real stack: what the API then reports matches the drawn data set (profiles' counts,
 * follower counts, follow checks, board unfollows, interests, likes), a second run of the same prefix is refused,
 * and the manifest's tokens are accepted.
 */
@QuarkusTest
@StackTest
class SeedTest {

    @Inject
    Seeder seeder;
    @Inject
    UserRepository usernames;

    @Test
    void aSmallSeedIsWhatTheApiThenReports() throws Exception {
        String prefix = "t" + Long.toString(ThreadLocalRandom.current().nextLong(1L << 40), 36);
        SeedPlan plan = new SeedPlan(300, 3, 3000, 10, 1, 5, 0.5, 0.2, 1.5, 20, prefix, 11);
        Path out = Files.createTempDirectory("seed");
        SeedReport report =
                seeder.run(plan, out, "seed_worker_test", false, new PrintStream(new ByteArrayOutputStream()), false);
        SeedData data = SeedGenerator.generate(plan, System.currentTimeMillis());
        assertEquals(data.fingerprint(), report.fingerprint());

        int[] followers = data.followerCounts();
        for (int u : new int[] {0, 1, 2, 150, 299}) {
            String id = idOf(plan, u);
            JsonPath user = given().get("/v1/users/" + id).then().statusCode(200).extract().jsonPath();
            assertEquals(
                    data.boardStart[u + 1] - data.boardStart[u], user.getInt("counts.boards"), "boards of user " + u);
            assertEquals(
                    count(data.pinBoard, p -> data.pinOwner(p) == u), user.getInt("counts.pins"), "pins of user " + u);
            assertEquals(
                    count(data.likeUser, i -> data.likeUser[i] == u),
                    user.getInt("counts.likes"),
                    "likes of user " + u);
            assertEquals(followers[u], user.getInt("counts.followers"), "followers of user " + u);
            assertEquals(
                    count(data.followFrom, i -> data.followFrom[i] == u),
                    user.getInt("counts.following"),
                    "follows of user " + u);
        }
        assertEquals(299, followers[0], "the heavy author is followed by everyone else");

        for (int i = 0; i < 20; i++) {
            String from = idOf(plan, data.followFrom[i]);
            String to = idOf(plan, data.followTo[i]);
            assertEquals(true, given().get("/v1/users/" + from + "/following/users/" + to).then().statusCode(200)
                    .extract().jsonPath().getBoolean("following"));
        }
        for (int i = 0; i < Math.min(10, data.boardUnfollows()); i++) {
            String user = idOf(plan, data.boardUnfollows.left(i));
            String board = boardId(plan, data, data.boardUnfollows.right(i));
            assertEquals(false, given().get("/v1/users/" + user + "/following/boards/" + board).then().statusCode(200)
                    .extract().jsonPath().getBoolean("following"), "an unfollowed board of a followed user");
        }

        @SuppressWarnings("unchecked")
        Map<String, Object> manifest = new com.fasterxml.jackson.databind.ObjectMapper()
                .readValue(out.resolve("manifest.json").toFile(), Map.class);
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> samples = (List<Map<String, Object>>) manifest.get("users");
        assertEquals(20, samples.size());
        Map<String, Object> sample = samples.get(0);
        assertEquals(
                sample.get("id"),
                given().auth()
                        .oauth2((String) sample.get("token"))
                        .get("/v1/me")
                        .then()
                        .statusCode(200)
                        .extract()
                        .jsonPath()
                        .getString("id"),
                "the manifest's token is the sample user's");
        assertEquals(20, Files.readAllLines(out.resolve("users.tsv")).size());

        try {
            seeder.run(plan, out, "seed_worker_test", false, new PrintStream(new ByteArrayOutputStream()), false);
            throw new AssertionError("a second seed of the same prefix was not refused");
        } catch (IllegalStateException refused) {
            assertTrue(refused.getMessage().contains(prefix));
        }
    }

    /** The board's id: its owner's boards listed by the API, oldest first, are the owner's boards by index. */
    private String boardId(SeedPlan plan, SeedData data, int board) {
        int owner = data.boardOwner[board];
        List<String> boards = given().queryParam("limit", 100).get("/v1/users/" + idOf(plan, owner) + "/boards").then()
                .statusCode(200).extract().jsonPath().getList("items.id");
        List<String> oldestFirst = new java.util.ArrayList<>(boards);
        java.util.Collections.reverse(oldestFirst);
        return oldestFirst.get(board - data.boardStart[owner]);
    }

    private String idOf(SeedPlan plan, int user) {
        PinionId id = usernames.findIdByUsername(SeedNames.username(plan, user)).await().indefinitely();
        return id.toString();
    }

    private static int count(int[] values, java.util.function.IntPredicate matches) {
        int count = 0;
        for (int i = 0; i < values.length; i++) {
            if (matches.test(i)) {
                count++;
            }
        }
        return count;
    }
}
