package io.pinion;

import static io.pinion.TestApi.admin;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.pinion.stack.LocalStack;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

/**
 * Readiness names every backend, and a stopped or hung backend shows DOWN by name while the others stay UP and
 * the service keeps answering. Faults are real: the server process is stopped or paused.
 */
@QuarkusTest
class HealthAndFaultsTest {

    private static final List<String> BACKENDS =
            List.of("mysql-1", "mysql-2", "redis-1", "redis-2", "hbase-primary", "hbase-standby");

    @Test
    void readinessReportsEveryBackendByNameAndUp() {
        given().when().get("/q/health/ready")
                .then().statusCode(200)
                .body("status", equalTo("UP"))
                .body("checks.name", containsInAnyOrder(BACKENDS.toArray()));
    }

    @Test
    void aStoppedRedisInstanceIsReportedDownAloneAndTheServiceKeepsServing() {
        LocalStack.run("stop", "redis-2");
        try {
            Map<String, String> states = readiness(503);
            assertEquals("DOWN", states.get("redis-2"));
            BACKENDS.stream().filter(b -> !b.equals("redis-2"))
                    .forEach(b -> assertEquals("UP", states.get(b), b));
            admin().as().when().get("/v1/admin/topology/shards/40").then().statusCode(200).body("host", equalTo("mysql-2"));
        } finally {
            LocalStack.run("start", "redis-2");
        }
        awaitAllUp();
    }

    @Test
    void aHungMysqlHostIsReportedDownWithinTheProbeTimeout() {
        LocalStack.run("pause", "mysql-2");
        try {
            long start = System.nanoTime();
            Map<String, String> states = readiness(503);
            assertEquals("DOWN", states.get("mysql-2"));
            assertEquals("UP", states.get("mysql-1"));
            assertEquals("UP", states.get("redis-1"));
            long tookMs = (System.nanoTime() - start) / 1_000_000;
            assertEquals(true, tookMs < 10_000, "readiness answered in " + tookMs + " ms despite the hung host");
        } finally {
            LocalStack.run("resume", "mysql-2");
        }
        awaitAllUp();
    }

    @Test
    void aHungHBaseClusterIsReportedDownAlone() {
        LocalStack.run("pause", "hbase-standby");
        try {
            Map<String, String> states = readiness(503);
            assertEquals("DOWN", states.get("hbase-standby"));
            assertEquals("UP", states.get("hbase-primary"));
        } finally {
            LocalStack.run("resume", "hbase-standby");
        }
        awaitAllUp();
    }

    private static Map<String, String> readiness(int expectedStatus) {
        JsonPath json = given().when().get("/q/health/ready")
                .then().statusCode(expectedStatus)
                .extract().jsonPath();
        Map<String, String> states = new HashMap<>();
        List<Map<String, Object>> checks = json.getList("checks");
        checks.forEach(check -> states.put((String) check.get("name"), (String) check.get("status")));
        return states;
    }

    private static void awaitAllUp() {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        int status = 0;
        while (System.nanoTime() < deadline) {
            status = given().when().get("/q/health/ready").then().extract().statusCode();
            if (status == 200) {
                return;
            }
            sleep(500);
        }
        assertEquals(200, status, "all backends are UP again after the fault is removed");
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
