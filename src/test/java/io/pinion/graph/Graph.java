package io.pinion.graph;

import static io.restassured.RestAssured.given;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import io.pinion.Json;
import io.pinion.TestApi;
import io.pinion.TestApi.TestUser;
import io.pinion.Wait;
import io.pinion.topology.ActiveTopology;

/**
 * Test helpers that drive the follow API as a client does.
 */
public final class Graph {

    private Graph() {
    }

    static void followUser(TestUser who, String user) {
        who.as().put("/v1/me/following/users/" + user).then().statusCode(200);
    }

    static void unfollowUser(TestUser who, String user) {
        who.as().delete("/v1/me/following/users/" + user).then().statusCode(200);
    }

    static void followBoard(TestUser who, String board) {
        who.as().put("/v1/me/following/boards/" + board).then().statusCode(200);
    }

    static void unfollowBoard(TestUser who, String board) {
        who.as().delete("/v1/me/following/boards/" + board).then().statusCode(200);
    }

    static boolean followsUser(String a, String b) {
        return Json.of(given().get("/v1/users/" + a + "/following/users/" + b)
                        .then()
                        .statusCode(200)
                        .extract()
                        .response())
                .path("following")
                .asBoolean();
    }

    static boolean followsUserImplicitly(String a, String b) {
        return Json.of(given().get("/v1/users/" + a + "/following/users/" + b)
                        .then()
                        .statusCode(200)
                        .extract()
                        .response())
                .path("implicit")
                .asBoolean();
    }

    static boolean followsBoard(String a, String board) {
        return Json.of(given().get("/v1/users/" + a + "/following/boards/" + board)
                        .then()
                        .statusCode(200)
                        .extract()
                        .response())
                .path("following")
                .asBoolean();
    }

    /** Every id of a paged list, following cursors to the end. */
    static List<String> all(String path) {
        List<String> ids = new ArrayList<>();
        String cursor = null;
        do {
            var request = given().queryParam("limit", 7);
            if (cursor != null) {
                request.queryParam("cursor", cursor);
            }
            JsonNode page = Json.of(request.get(path).then().statusCode(200).extract().response());
            page.path("items").forEach(item -> ids.add(item.path("id").asText()));
            cursor = page.path("nextCursor").isTextual() ? page.path("nextCursor").asText() : null;
        } while (cursor != null);
        return ids;
    }

    /** A user's counts ({@code counts} of {@code GET /v1/users/{id}}): {@code getLong(name)}. */
    static Counts userCounts(String user) {
        return new Counts(Json.of(given().get("/v1/users/" + user)
                        .then()
                        .statusCode(200)
                        .extract()
                        .response())
                .path("counts"));
    }

    /** The counts of an answer. */
    record Counts(JsonNode node) {
        long getLong(String name) {
            if (!node.path(name).isNumber()) {
                throw new AssertionError("no count " + name + " in " + node);
            }
            return node.path(name).asLong();
        }
    }

    /**
     * Until every Redis instance of the graph answers a follow check again (200), for tests that paused or stopped
     * one: its breaker stays open for a while after the server is back, and the next test must not meet it.
     */
    public static void awaitAnswering(VirtualShards shards, ActiveTopology topology) throws InterruptedException {
        for (var instance : topology.get().redis().instances()) {
            TestUser user = userOn(instance.name(), shards, topology);
            String check = "/v1/users/" + user.id() + "/following/users/" + user.id();
            int[] status = {0};
            Wait.within(30_000, () -> {
                status[0] = given().get(check).then().extract().statusCode();
                return status[0] == 200;
            }, () -> instance.name() + " answers again after it was resumed (last status " + status[0] + ")");
        }
    }

    /** A new user whose graph keys live on the named Redis instance. */
    public static TestUser userOn(String instance, VirtualShards shards, ActiveTopology topology) {
        for (int i = 0; i < 200; i++) {
            TestUser user = TestApi.newUser();
            int vs = shards.ofUser(Long.parseLong(user.id()));
            if (topology.get().redis().instanceOf(vs).orElseThrow().name().equals(instance)) {
                return user;
            }
        }
        throw new IllegalStateException("no user landed on " + instance);
    }

    static long boardFollowerCount(String board) {
        return Json.of(given().get("/v1/boards/" + board).then().statusCode(200).extract().response())
                .path("counts").path("followers").asLong();
    }
}
