package io.pinion.mysql;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import io.pinion.Wait;
import io.pinion.id.ObjectType;
import io.pinion.id.PinionId;
import io.pinion.ops.TopologyEdits;
import io.pinion.queue.work.JobDispatcher;
import io.pinion.stack.LocalStack;
import io.pinion.stack.StackTest;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/**
 * The service starts while a MySQL master cannot be reached, here mysql-1, which also holds the queues' control
 * shard: the other host serves, the unreachable host's shards answer a fast 503, the in-app job handlers wait for
 * their queues, and once the host answers it is migrated and everything is served without a restart. The service
 * starts on a topology that names a port nothing listens on as mysql-1's master (a host that is down, refusing
 * connections); the topology is then repaired (in ZooKeeper) while the real mysql-1 is paused (a host that hangs), and
 * mysql-1 is resumed.
 */
@QuarkusTest
@StackTest
@TestProfile(UnreachableAtStartTest.Mysql1Unreachable.class)
@Tag("fault")
class UnreachableAtStartTest {

    private static final Path TOPOLOGY = LocalStack.repoRoot().resolve("target/test-topology-unreachable.json");
    private static final String ON_DOWN_HOST = "/v1/users/" + PinionId.of(3, ObjectType.USER, 60_000_000_000L);
    private static final String ON_OTHER_HOST = "/v1/users/" + PinionId.of(40, ObjectType.USER, 60_000_000_000L);

    public static class Mysql1Unreachable implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            String local = localTopology();
            String unreachable = local.replace("\"127.0.0.1:33061\"", "\"127.0.0.1:" + closedPort() + "\"");
            if (unreachable.equals(local)) {
                throw new IllegalStateException("mysql-1's master is not 127.0.0.1:33061 in topology/local.json");
            }
            write(unreachable);
            return Map.of(
                    "pinion.topology.file", TOPOLOGY.toString(), "pinion.mysql.migration-retry-interval", "500ms");
        }
    }

    @Inject
    SchemaGate schema;
    @Inject
    TopologyEdits edits;
    @Inject
    JobDispatcher dispatcher;

    @Test
    void theOtherHostServesTheUnreachableOnesShardsFailFastAndItIsServedOnceItAnswers() throws Exception {
        given().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"));
        assertEquals(Set.of("mysql-1"), schema.pending());
        given().get(ON_OTHER_HOST).then().statusCode(404);
        given().get(ON_DOWN_HOST).then().statusCode(503).body("error", equalTo("backend_unavailable"))
                .body("message", containsString("shard 3"));
        long ms = io.pinion.TestApi.medianMillis(7, () -> given().get(ON_DOWN_HOST).then().statusCode(503));
        assertTrue(ms < 50, "503s in " + ms + " ms (median)");
        io.pinion.TestApi.management()
                .get("/q/metrics")
                .then()
                .body(containsString("pinion_mysql_schema_unverified_hosts 1.0"));
        assertFalse(
                dispatcher.handledQueues().contains("feed-fanout"), "no queue is readable without the control shard");

        // hung rather than refused: the server accepts connections and answers nothing
        LocalStack.run("pause", "mysql-1");
        try {
            edits.replace(localTopology(), edits.inForce().version()).await().atMost(Duration.ofSeconds(10));
            Wait.pause(Duration.ofSeconds(6), "the migration, retried every 500 ms, meets only the hung host");
            assertEquals(Set.of("mysql-1"), schema.pending(), "the real mysql-1 hangs: still not migrated");
            ms = io.pinion.TestApi.medianMillis(5, () -> given().get(ON_DOWN_HOST).then().statusCode(503));
            assertTrue(
                    ms < 200,
                    "a 503 in " + ms + " ms while the host hangs (no round trip: the timeouts are 1.5 s and more)");
        } finally {
            LocalStack.run("resume", "mysql-1");
        }
        long started = System.currentTimeMillis();
        Wait.within(30_000, () -> schema.pending().isEmpty(), () -> "mysql-1 migrated once it answered (pending "
                + schema.pending() + ")");
        System.out.printf("mysql-1 served %d ms after it was resumed%n", System.currentTimeMillis() - started);
        long deadline = System.currentTimeMillis() + 15_000;
        int[] status = {0};
        Wait.within(15_000, () -> {
            status[0] = given().get(ON_DOWN_HOST).then().extract().statusCode();
            return status[0] == 404;
        }, () -> "the shard is served again (last status " + status[0] + ")");
        io.pinion.TestApi.management()
                .get("/q/metrics")
                .then()
                .body(containsString("pinion_mysql_schema_unverified_hosts 0.0"));
        Wait.within(deadline - System.currentTimeMillis(), () -> dispatcher.handledQueues().contains("feed-fanout"),
                "the handlers run once the queues are readable");
    }

    private static String localTopology() {
        try (InputStream in =
                UnreachableAtStartTest.class.getClassLoader().getResourceAsStream("topology/local.json")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void write(String topology) {
        try {
            Files.createDirectories(TOPOLOGY.getParent());
            Files.writeString(TOPOLOGY, topology);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A local port nothing listens on: connections to it are refused, as to a stopped server. */
    private static int closedPort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
