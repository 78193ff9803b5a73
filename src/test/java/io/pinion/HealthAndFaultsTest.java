package io.pinion;

import static io.pinion.TestApi.admin;
import static io.pinion.TestApi.management;
import static io.pinion.TestApi.newUser;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import io.pinion.TestApi.TestUser;
import io.pinion.graph.Graph;
import io.pinion.graph.VirtualShards;
import io.pinion.id.ObjectType;
import io.pinion.id.PinionId;
import io.pinion.stack.LocalStack;
import io.pinion.stack.StackTest;
import io.pinion.topology.ActiveTopology;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;

/**
 * Readiness means "this instance can serve": it stays UP while a backend is stopped or hung; the {@code backends}
 * health group names the backend that is down (and shows no endpoint or version: those are for admins), and the
 * requests that need it answer 503 at once after the first failure, while the others are served. Faults are real:
 * the server process is stopped or paused.
 */
@QuarkusTest
@StackTest
@Tag("fault")
class HealthAndFaultsTest {

    private static final List<String> BACKENDS =
            List.of("mysql-1", "mysql-1-replica", "mysql-2", "mysql-2-replica", "redis-1", "redis-1-replica", "redis-2",
                    "redis-2-replica", "hbase-primary", "hbase-standby", "zookeeper");

    @Inject
    VirtualShards shards;
    @Inject
    ActiveTopology topology;

    @Test
    void readinessIsUpAndTheBackendsGroupNamesEveryBackendWithoutInternals() {
        given().when().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"));
        JsonPath backends = management()
                .when()
                .get("/q/health/group/backends")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertEquals(BACKENDS.size(), backends.getList("checks").size());
        management()
                .when()
                .get("/q/health/group/backends")
                .then()
                .body("checks.name", containsInAnyOrder(BACKENDS.toArray()));
        given().when().get("/q/health").then().statusCode(404); // the whole report is the management interface's
        String text = given().when().get("/q/health/ready").then().extract().asString()
                + given().when().get("/q/health/live").then().extract().asString();
        assertFalse(text.contains("127.0.0.1") || text.contains("MariaDB") || text.contains("endpoint"),
                "no endpoint or version in public health output: " + text);
        admin().as().get("/v1/admin/backends").then().statusCode(200)
                .body("items.name", containsInAnyOrder(BACKENDS.toArray()))
                .body("items[0].endpoint", org.hamcrest.Matchers.notNullValue());
        newUser().as().get("/v1/admin/backends").then().statusCode(403).body("error", equalTo("forbidden"));
    }

    @Test
    void aStoppedRedisInstanceIsDownAloneReadinessStaysUpAndItsRequestsFailFast() throws Exception {
        TestUser onSecond = Graph.userOn("redis-2", shards, topology);
        TestUser onFirst = Graph.userOn("redis-1", shards, topology);
        LocalStack.run("stop", "redis-2");
        try {
            given().when().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"));
            Map<String, String> states = backends(503);
            assertEquals("DOWN", states.get("redis-2"));
            // its replica, as Sentinel reports it, may be down too: its link to the stopped master is
            BACKENDS.stream().filter(b -> !b.startsWith("redis-2")).forEach(b -> assertEquals("UP", states.get(b), b));
            admin().as()
                    .when()
                    .get("/v1/admin/topology/shards/40")
                    .then()
                    .statusCode(200)
                    .body("host", equalTo("mysql-2"));
            given().get("/v1/users/" + onFirst.id() + "/following/users/" + onSecond.id()).then().statusCode(200);
            Response failed = given().get("/v1/users/" + onSecond.id() + "/following/users/" + onFirst.id());
            failed.then().statusCode(503).body("error", equalTo("backend_unavailable"));
            assertFalse(failed.asString().contains("63792") || failed.asString().contains("Exception"),
                    "a 503 names the backend's role, no address or class: " + failed.asString());
        } finally {
            LocalStack.run("start", "redis-2");
            awaitAllUp();
            Graph.awaitAnswering(shards, topology);
        }
    }

    @Test
    void aPausedRedisLeavesReadinessUpAndItsRequestsAnswer503Within50msAfterTheFirstFailure() throws Exception {
        TestUser onSecond = Graph.userOn("redis-2", shards, topology);
        TestUser other = newUser();
        URI check = URI.create("http://localhost:" + RestAssured.port + "/v1/users/" + onSecond.id()
                + "/following/users/" + other.id());
        HttpClient client = HttpClient.newHttpClient();
        LocalStack.run("pause", "redis-2");
        try {
            // the first request waits for the command timeout and opens the instance's breaker
            assertEquals(503, status(client, check));
            long ms = io.pinion.TestApi.medianMillis(7, () -> assertEquals(503, status(client, check)));
            assertTrue(ms < 50, "503s after the breaker opened, median " + ms + " ms (under 50)");
            given().when().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"));
        } finally {
            LocalStack.run("resume", "redis-2");
            awaitAllUp();
            Wait.upTo(10_000, () -> answers(client, check, 200)); // asserted below, outside the finally
        }
        assertEquals(200, status(client, check), "a trial request closes the breaker once the instance is back");
    }

    private static int status(HttpClient client, URI uri) throws IOException, InterruptedException {
        return client.send(HttpRequest.newBuilder(uri).GET().build(), HttpResponse.BodyHandlers.discarding())
                .statusCode();
    }

    private static boolean answers(HttpClient client, URI uri, int expected) {
        try {
            return status(client, uri) == expected;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aHungMysqlHostIsReportedDownWithinTheProbeTimeoutAndItsShardsFailFast() throws InterruptedException {
        LocalStack.run("pause", "mysql-2");
        try {
            long start = System.nanoTime();
            Map<String, String> states = backends(503);
            assertEquals("DOWN", states.get("mysql-2"));
            assertEquals("UP", states.get("mysql-1"));
            assertEquals("UP", states.get("redis-1"));
            long tookMs = (System.nanoTime() - start) / 1_000_000;
            assertTrue(tookMs < 10_000, "the backends group answered in " + tookMs + " ms despite the hung host");
            given().when().get("/q/health/ready").then().statusCode(200);
            // an id no user has: a user that exists may be served from the object cache while its host hangs
            String onSecondHost = "/v1/users/" + PinionId.of(40, ObjectType.USER, 60_000_000_000L);
            given().get(onSecondHost).then().statusCode(503).body("message", containsString("shard 40"));
            long ms = io.pinion.TestApi.medianMillis(7, () -> given().get(onSecondHost).then().statusCode(503));
            assertTrue(ms < 50, "503s once the host's breaker is open, median " + ms + " ms (under 50)");
            given().get("/v1/users/" + PinionId.of(3, ObjectType.USER, 60_000_000_000L)).then().statusCode(404);
        } finally {
            LocalStack.run("resume", "mysql-2");
            awaitAllUp();
            awaitBreakerClosed("/v1/users/" + PinionId.of(40, ObjectType.USER, 60_000_000_000L));
        }
    }

    @Test
    void aHungHBaseClusterIsReportedDownAlone() throws InterruptedException {
        LocalStack.run("pause", "hbase-standby");
        try {
            Map<String, String> states = backends(503);
            assertEquals("DOWN", states.get("hbase-standby"));
            assertEquals("UP", states.get("hbase-primary"));
            given().when().get("/q/health/ready").then().statusCode(200);
        } finally {
            LocalStack.run("resume", "hbase-standby");
            awaitAllUp();
        }
    }

    /**
     * The backends group once it answers {@code expectedStatus}: its probe results may be up to
     * {@code pinion.health.probe-reuse} (1 s) old, so a fault shows within that time plus the probe timeout.
     */
    private static Map<String, String> backends(int expectedStatus) throws InterruptedException {
        Wait.within(5_000, () -> management().when().get("/q/health/group/backends").then().extract().statusCode()
                == expectedStatus, "the backends group answers " + expectedStatus);
        JsonPath json = management().when().get("/q/health/group/backends")
                .then().statusCode(expectedStatus)
                .extract().jsonPath();
        Map<String, String> states = new HashMap<>();
        List<Map<String, Object>> checks = json.getList("checks");
        checks.forEach(check -> states.put((String) check.get("name"), (String) check.get("status")));
        return states;
    }

    private static void awaitAllUp() throws InterruptedException {
        int[] status = {0};
        Wait.within(60_000, () -> {
            status[0] = management().when().get("/q/health/group/backends").then().extract().statusCode();
            return status[0] == 200;
        }, () -> "all backends are UP again after the fault is removed (last status " + status[0] + ")");
    }

    /** Until the host's breaker let a trial through and closed: the request is answered (404), not refused (503). */
    private static void awaitBreakerClosed(String path) throws InterruptedException {
        Wait.within(30_000, () -> given().get(path).then().extract().statusCode() != 503,
                "the host's breaker closes once it is back (its request answered, not refused with 503)");
    }
}
