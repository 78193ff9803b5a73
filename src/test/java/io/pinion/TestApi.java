package io.pinion;

import static io.restassured.RestAssured.given;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import io.pinion.auth.Roles;
import io.pinion.id.PinionId;
import io.pinion.users.UserGrants;
import io.quarkus.arc.Arc;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;

/**
 * Small helpers that drive the public API the way a client does: sign up, log in, create boards and pins.
 */
public final class TestApi {

    /** A signed-up user with a token. */
    public record TestUser(String id, String username, String token) {

        public RequestSpecification as() {
            return given().contentType(ContentType.JSON).header("Authorization", "Bearer " + token);
        }
    }

    private TestApi() {
    }

    /** Requests to the test instance's management interface (metrics, the backends health group). */
    public static io.restassured.specification.RequestSpecification management() {
        return given().port(MANAGEMENT_PORT);
    }

    /** {@code quarkus.management.test-port}. */
    public static final int MANAGEMENT_PORT = 9001;

    /**
     * The median time of {@code times} runs of {@code request}, in milliseconds: one request's time on a busy machine
     * is noise, the median says whether requests wait.
     */
    public static long medianMillis(int times, TimedRequest request) {
        long[] took = new long[times];
        for (int i = 0; i < times; i++) {
            long start = System.nanoTime();
            try {
                request.run();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            took[i] = (System.nanoTime() - start) / 1_000_000;
        }
        java.util.Arrays.sort(took);
        return took[times / 2];
    }

    /** A request timed by {@link #medianMillis}. */
    @FunctionalInterface
    public interface TimedRequest {
        void run() throws Exception;
    }

    public static TestUser newUser() {
        String username = "u_" + UUID.randomUUID().toString().replace("-", "").substring(0, 20);
        return signUpAndLogin(username, "password-" + username);
    }

    /** The tests' admin: signed up on first use and granted the role as bin/admin does ({@link UserGrants}). */
    public static TestUser admin() {
        return granted("admin_test", "admin-password", Roles.ADMIN);
    }

    /**
     * Replaces the topology through the admin API, as an operator does: reads the version in force (the ETag) and
     * puts {@code next} as a compare-and-set on it. Returns the answer (200 when it took effect here).
     */
    public static io.restassured.response.Response putTopology(io.pinion.topology.Topology next) {
        TestUser operator = admin();
        String version = operator.as().get("/v1/admin/topology").then().statusCode(200).extract().header("ETag");
        return operator.as().contentType("application/json").header("If-Match", version)
                .body(io.pinion.topology.TopologyLoader.toJson(next)).put("/v1/admin/topology");
    }

    /** The tests' job worker, likewise; {@code Queues.create} grants it each queue it creates. */
    public static TestUser worker() {
        return granted("worker_test", "worker-password", Roles.WORKER);
    }

    /** A user with the role, through the same grant the operator's command and the admin API make. */
    public static TestUser granted(String username, String password, String role) {
        given().contentType(ContentType.JSON)
                .body(Map.of("username", username, "password", password))
                .post("/v1/users");
        TestUser plain = login(username, password);
        Arc.container().instance(UserGrants.class).get().grantRole(PinionId.parse(plain.id()), role)
                .await().atMost(Duration.ofSeconds(30));
        return login(username, password);
    }

    public static TestUser signUpAndLogin(String username, String password) {
        given().contentType(ContentType.JSON)
                .body(Map.of("username", username, "password", password, "displayName", "Test " + username))
                .post("/v1/users")
                .then().statusCode(201);
        return login(username, password);
    }

    public static TestUser login(String username, String password) {
        var session = Json.of(given().contentType(ContentType.JSON)
                .body(Map.of("username", username, "password", password))
                .post("/v1/sessions")
                .then().statusCode(200)
                .extract().response());
        return new TestUser(session.path("userId").asText(), username, session.path("token").asText());
    }

    public static String createBoard(TestUser user, String name) {
        return Json.text(user.as().body(Map.of("name", name, "description", "about " + name))
                .post("/v1/boards")
                .then().statusCode(201)
                .extract().response(), "id");
    }

    public static String createPin(TestUser user, String boardId, String description) {
        return Json.text(user.as().body(Map.of("boardId", boardId, "description", description,
                        "link", "https://example.com/" + UUID.randomUUID(),
                        "imageUrl", "https://img.example.com/" + UUID.randomUUID() + ".jpg",
                        "interests", java.util.List.of("Travel", "food")))
                .post("/v1/pins")
                .then().statusCode(201)
                .extract().response(), "id");
    }

    /** The shard part of an id. */
    public static int shardOf(String id) {
        return (int) (Long.parseLong(id) >>> 46);
    }
}
