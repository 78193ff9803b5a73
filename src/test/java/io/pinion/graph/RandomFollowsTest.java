package io.pinion.graph;

import static io.pinion.TestApi.createBoard;
import static io.pinion.TestApi.newUser;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.Test;

import io.pinion.TestApi.TestUser;
import io.pinion.stack.StackTest;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

/**
 * 3,000 random follows and unfollows of users and boards, from 8 threads (each thread owns its followers, so every
 * follower's operations happen in order), checked against a model of the article's rules computed here: every
 * user's and board's counts, and every user's follower and following lists.
 */
@QuarkusTest
@StackTest
class RandomFollowsTest {

    private static final int USERS = 40;
    private static final int BOARDS_PER_USER = 2;
    private static final int OPERATIONS = 3_000;
    private static final int THREADS = 8;

    /** One follower's relationships, as the article defines them. */
    private static final class Follower {
        final Set<Integer> explicit = new HashSet<>();
        final Map<Integer, Set<String>> boardFollows = new HashMap<>();
        final Map<Integer, Set<String>> boardUnfollows = new HashMap<>();
    }

    private final List<TestUser> users = new ArrayList<>();
    private final List<List<String>> boards = new ArrayList<>();
    private final Follower[] model = new Follower[USERS];

    @Test
    void countsAndListsAreExactAfterThreeThousandRandomOperations() throws Exception {
        for (int u = 0; u < USERS; u++) {
            TestUser user = newUser();
            users.add(user);
            List<String> own = new ArrayList<>();
            for (int b = 0; b < BOARDS_PER_USER; b++) {
                own.add(createBoard(user, "board " + b));
            }
            boards.add(own);
            model[u] = new Follower();
        }
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        List<Future<?>> runs = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            int thread = t;
            runs.add(pool.submit(() -> run(thread, new Random(1000 + thread))));
        }
        for (Future<?> run : runs) {
            run.get();
        }
        pool.shutdown();

        for (int c = 0; c < USERS; c++) {
            String id = users.get(c).id();
            JsonPath counts = given().get("/v1/users/" + id).then().statusCode(200).extract().jsonPath();
            assertEquals(followersOf(c).size(), counts.getLong("counts.followers"), "followers of user " + c);
            assertEquals(
                    implicitFollowersOf(c).size(),
                    counts.getLong("counts.implicitFollowers"),
                    "implicit followers of " + c);
            assertEquals(model[c].explicit.size(), counts.getLong("counts.following"), "following of " + c);
            assertEquals(
                    nonEmpty(model[c].boardFollows).size(),
                    counts.getLong("counts.implicitFollowing"),
                    "implicit following of " + c);
            assertEquals(
                    model[c].boardFollows.values().stream().mapToInt(Set::size).sum(),
                    counts.getLong("counts.followedBoards"));
            assertEquals(
                    followersOf(c),
                    new HashSet<>(Graph.all("/v1/users/" + id + "/followers")),
                    "follower list of " + c);
            assertEquals(
                    ids(model[c].explicit),
                    new HashSet<>(Graph.all("/v1/users/" + id + "/following")),
                    "following list of " + c);
            for (String board : boards.get(c)) {
                Set<String> receivers = receiversOf(c, board);
                assertEquals(receivers.size(), Graph.boardFollowerCount(board), "followers of board " + board);
                assertEquals(
                        receivers,
                        new HashSet<>(Graph.all("/v1/boards/" + board + "/followers")),
                        "receivers of " + board);
            }
        }
    }

    private void run(int thread, Random random) {
        for (int i = thread; i < OPERATIONS; i += THREADS) {
            int a = random.nextInt(USERS / THREADS) * THREADS + thread;
            int c = random.nextInt(USERS);
            if (c == a) {
                continue;
            }
            String board = boards.get(c).get(random.nextInt(BOARDS_PER_USER));
            TestUser follower = users.get(a);
            Follower state = model[a];
            Set<String> follows = state.boardFollows.computeIfAbsent(c, k -> new HashSet<>());
            Set<String> unfollows = state.boardUnfollows.computeIfAbsent(c, k -> new HashSet<>());
            switch (random.nextInt(4)) {
                case 0 -> {
                    follower.as().put("/v1/me/following/users/" + users.get(c).id()).then().statusCode(200);
                    if (state.explicit.add(c)) {
                        follows.clear();
                        unfollows.clear();
                    }
                }
                case 1 -> {
                    follower.as().delete("/v1/me/following/users/" + users.get(c).id()).then().statusCode(200);
                    if (state.explicit.remove(c)) {
                        unfollows.clear();
                    }
                }
                case 2 -> {
                    follower.as().put("/v1/me/following/boards/" + board).then().statusCode(200);
                    if (state.explicit.contains(c)) {
                        unfollows.remove(board);
                    } else {
                        follows.add(board);
                    }
                }
                default -> {
                    follower.as().delete("/v1/me/following/boards/" + board).then().statusCode(200);
                    if (state.explicit.contains(c)) {
                        unfollows.add(board);
                    } else {
                        follows.remove(board);
                    }
                }
            }
        }
    }

    private Set<String> followersOf(int c) {
        Set<String> ids = new HashSet<>();
        for (int a = 0; a < USERS; a++) {
            if (model[a].explicit.contains(c)) {
                ids.add(users.get(a).id());
            }
        }
        return ids;
    }

    private Set<String> implicitFollowersOf(int c) {
        Set<String> ids = new HashSet<>();
        for (int a = 0; a < USERS; a++) {
            if (!model[a].boardFollows.getOrDefault(c, Set.of()).isEmpty()) {
                ids.add(users.get(a).id());
            }
        }
        return ids;
    }

    private Set<String> receiversOf(int c, String board) {
        Set<String> ids = new HashSet<>();
        for (int a = 0; a < USERS; a++) {
            boolean viaOwner = model[a].explicit.contains(c)
                    && !model[a].boardUnfollows.getOrDefault(c, Set.of()).contains(board);
            if (viaOwner || model[a].boardFollows.getOrDefault(c, Set.of()).contains(board)) {
                ids.add(users.get(a).id());
            }
        }
        return ids;
    }

    private static Set<Integer> nonEmpty(Map<Integer, Set<String>> byUser) {
        Set<Integer> users = new HashSet<>();
        byUser.forEach((user, boards) -> {
            if (!boards.isEmpty()) {
                users.add(user);
            }
        });
        return users;
    }

    private Set<String> ids(Set<Integer> indexes) {
        Set<String> ids = new HashSet<>();
        indexes.forEach(index -> ids.add(users.get(index).id()));
        return ids;
    }
}
