package io.pinion.zookeeper;

import static io.pinion.TestApi.admin;
import static io.pinion.TestApi.createBoard;
import static io.pinion.TestApi.management;
import static io.pinion.TestApi.newUser;
import static io.pinion.Wait.pause;
import static io.pinion.Wait.within;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import io.pinion.TestApi.TestUser;
import io.pinion.TestApi;
import io.pinion.stack.LocalStack;
import io.pinion.stack.StackTest;
import io.pinion.topology.ActiveTopology;
import io.pinion.topology.TopologyLoader;
import io.quarkus.test.junit.QuarkusTest;

/**
 * ZooKeeper out of reach: one server of three killed changes nothing; the whole ensemble stopped for 20 s leaves
 * requests working on the topology in force, readiness up, the {@code backends} group naming ZooKeeper down, refuses
 * fast what would change the topology (an edit, a promotion), and takes enqueues; once the ensemble is back the
 * instance reads the topology again, edits go through and the job enqueued meanwhile is handed out.
 */
@QuarkusTest
@StackTest
@Tag("fault")
class ZookeeperOutageTest {

    @Inject
    ActiveTopology topology;
    @Inject
    Zookeeper zookeeper;

    @Test
    void oneServerDownChangesNothingTheWholeEnsembleDownChangesNoTopology() throws Exception {
        TestUser operator = admin();
        TestUser user = newUser();
        LocalStack.run("kill", "zk-2");
        try {
            createBoard(user, "one of three down");
            // the ensemble may be electing a new leader for a moment when the one killed led it
            within(10_000, () -> TestApi.putTopology(topology.get()).statusCode() == 200);
        } finally {
            LocalStack.run("start", "zk-2");
        }

        String queue = "zk-outage-" + java.util.UUID.randomUUID().toString().substring(0, 8);
        operator.as().contentType("application/json").body(java.util.Map.of("name", queue, "partitions", 1))
                .post("/v1/queues").then().statusCode(201);
        long version = topology.versioned().version();
        long stopped = System.currentTimeMillis();
        LocalStack.run("stop", "zk-1", "zk-2", "zk-3");
        try {
            within(15_000, () -> !zookeeper.connected());
            given().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"));
            management().get("/q/health/group/backends").then().statusCode(503)
                    .body("checks.find { it.name == 'zookeeper' }.status", equalTo("DOWN"));
            createBoard(user, "written while ZooKeeper is down");
            given().get("/v1/users/" + user.id()).then().statusCode(200);
            long started = System.nanoTime();
            operator.as().contentType("application/json").header("If-Match", "\"" + version + "\"")
                    .body(TopologyLoader.toJson(topology.get())).put("/v1/admin/topology").then().statusCode(503)
                    .body("error", equalTo("backend_unavailable"));
            operator.as().post("/v1/admin/mysql/hosts/mysql-2/promote").then().statusCode(503);
            long tookMs = (System.nanoTime() - started) / 1_000_000;
            assertTrue(tookMs < 1_000, "refused in " + tookMs + " ms");
            assertEquals(version, topology.versioned().version(), "the topology in force stays");
            assertEquals("mysql-2", TestApi.admin().as().get("/v1/admin/topology/shards/40").then().statusCode(200)
                    .extract().path("host"));
            // held down for 20 s (twice the session timeout, so the session is lost meanwhile): requests keep working
            // on the same topology, enqueues are taken (the jobs wait,
            // since no broker may serve a partition without ZooKeeper), nothing is promoted
            operator.as()
                    .contentType("application/json")
                    .body(java.util.Map.of("body", "enqueued while ZooKeeper is down"))
                    .post("/v1/queues/" + queue + "/jobs")
                    .then()
                    .statusCode(201);
            while (System.currentTimeMillis() - stopped < 20_000) {
                createBoard(user, "written while ZooKeeper stays down");
                given().get("/v1/users/" + user.id()).then().statusCode(200);
                pause(Duration.ofSeconds(1), "a write and a read a second while ZooKeeper stays down");
            }
            assertEquals(version, topology.versioned().version(), "nothing promoted, no topology change");
        } finally {
            LocalStack.run("start", "zk-1", "zk-2", "zk-3");
        }
        within(30_000, zookeeper::connected);
        management().get("/q/health/group/backends").then()
                .body("checks.find { it.name == 'zookeeper' }.status", equalTo("UP"));
        TestApi.putTopology(topology.get()).then().statusCode(200);
        assertTrue(topology.versioned().version() > version);
        // the broker claims its partitions again: the job enqueued during the outage is handed out
        operator.as().contentType("application/json").body(java.util.Map.of("max", 1, "waitMs", 15_000))
                .post("/v1/queues/" + queue + "/dequeue").then().statusCode(200)
                .body("items[0].body", equalTo("enqueued while ZooKeeper is down"));
    }
}
