package io.pinion.zookeeper;

import static io.pinion.TestApi.admin;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.Test;

import io.pinion.TestApi.TestUser;
import io.pinion.Wait;
import io.pinion.stack.LocalStack;
import io.pinion.stack.StackResource;
import io.pinion.stack.StackTest;
import io.pinion.topology.ActiveTopology;
import io.pinion.topology.MysqlTopology;
import io.pinion.topology.ShardRange;
import io.pinion.topology.Topology;
import io.pinion.topology.TopologyLoader;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The topology lives in ZooKeeper: the version in force is the znode's (the ETag of the admin API, the readiness
 * data), a change written there by anyone is in force here within a second, copied to the topology file and empties
 * the object cache (rows read before may come from a server the cluster has left), and
 * every edit is a compare-and-set: of two concurrent edits of one version exactly one wins, the other gets a 409.
 */
@QuarkusTest
@StackTest
class TopologyInZookeeperTest {

    @Inject
    ActiveTopology topology;
    @Inject
    ZookeeperConfig config;
    @Inject
    io.pinion.store.ObjectCache cache;

    @Test
    void aChangeWrittenInZookeeperIsInForceWithinOneSecondAndCopiedToTheFile() throws Exception {
        TestUser operator = admin();
        long version = Long.parseLong(operator.as().get("/v1/admin/topology").then().statusCode(200)
                .extract().header("ETag").replace("\"", ""));
        assertEquals(topology.versioned().version(), version);
        given().get("/q/health/ready")
                .then()
                .statusCode(200)
                .body("checks.find { it.name == 'pinion' }.data.topologyVersion", org.hamcrest.Matchers.equalTo((int)
                        version));

        TestUser author = io.pinion.TestApi.newUser();
        String pin = io.pinion.TestApi.createPin(author, io.pinion.TestApi.createBoard(author, "cached"), "cached pin");
        within(() -> cache.usable());
        given().get("/v1/pins/" + pin).then().statusCode(200);
        given().get("/v1/pins/" + pin).then().statusCode(200);
        long pinId = Long.parseLong(pin);
        assertTrue(cache.get(pinId) != null, "the pin is cached");
        long epoch = cache.stamp(pinId).epoch();

        Topology original = topology.get();
        Topology narrowed = withOpenShards(original, new ShardRange(0, 62));
        try (CuratorFramework other = client()) {
            Stat written = other.setData()
                    .forPath("/topology", TopologyLoader.toJson(narrowed).getBytes(StandardCharsets.UTF_8));
            long started = System.nanoTime();
            Wait.within(5_000, Duration.ofMillis(5), () -> topology.versioned().version() == written.getVersion(),
                    () -> "version " + written.getVersion() + " in force (" + topology.versioned().version() + " is)");
            long tookMs = (System.nanoTime() - started) / 1_000_000;
            System.out.printf("a topology change written in ZooKeeper was in force after %d ms%n", tookMs);
            assertTrue(tookMs < 1_000, "in force after " + tookMs + " ms");
            assertEquals(new ShardRange(0, 62), topology.get().mysql().openShards());
            // other tests' jobs may fill it again at once: the clear is seen in its epoch and this pin's absence
            assertTrue(cache.stamp(pinId).epoch() > epoch && cache.get(pinId) == null,
                    "a new topology empties the object cache");
            java.nio.file.Path file = LocalStack.repoRoot().resolve("target/test-topology.json");
            // asserted below, the contents shown
            Wait.upTo(2_000 - (System.nanoTime() - started) / 1_000_000,
                    () -> contents(file).equals(TopologyLoader.toJson(narrowed)));
            assertEquals(TopologyLoader.toJson(narrowed), Files.readString(file), "the file follows");
        } finally {
            io.pinion.TestApi.putTopology(original).then().statusCode(200);
        }
        assertEquals(original, topology.get());
    }

    @Test
    void ofTwoConcurrentEditsOfOneVersionExactlyOneWins() throws Exception {
        TestUser operator = admin();
        Topology original = topology.get();
        String version = operator.as().get("/v1/admin/topology").then().extract().header("ETag");
        List<Topology> edits = List.of(withOpenShards(original, new ShardRange(0, 61)),
                withOpenShards(original, new ShardRange(2, 63)));
        ExecutorService threads = Executors.newFixedThreadPool(2);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Integer>> answers = new ArrayList<>();
        try {
            for (Topology edit : edits) {
                answers.add(threads.submit(() -> {
                    go.await();
                    return operator.as().contentType("application/json").header("If-Match", version)
                            .body(TopologyLoader.toJson(edit)).put("/v1/admin/topology").statusCode();
                }));
            }
            go.countDown();
            List<Integer> statuses = new ArrayList<>();
            for (Future<Integer> answer : answers) {
                statuses.add(answer.get(30, TimeUnit.SECONDS));
            }
            statuses.sort(Integer::compare);
            assertEquals(List.of(200, 409), statuses);
            // the loser read again and retries: its edit goes in on the new version
            operator.as().contentType("application/json").header("If-Match", version)
                    .body(TopologyLoader.toJson(original)).put("/v1/admin/topology").then().statusCode(409)
                    .body("error", org.hamcrest.Matchers.equalTo("topology_version_conflict"));
        } finally {
            threads.shutdownNow();
            io.pinion.TestApi.putTopology(original).then().statusCode(200);
        }
        assertEquals(original, topology.get());
    }

    @Test
    void anEditWithoutAVersionOrNotATopologyIsRefused() {
        TestUser operator = admin();
        String document = TopologyLoader.toJson(topology.get());
        operator.as().contentType("application/json").body(document).put("/v1/admin/topology").then().statusCode(400)
                .body("error", org.hamcrest.Matchers.equalTo("if_match_required"));
        String version = operator.as().get("/v1/admin/topology").then().extract().header("ETag");
        operator.as().contentType("application/json").header("If-Match", version).body("{\"mysql\":{}}")
                .put("/v1/admin/topology").then().statusCode(400)
                .body("error", org.hamcrest.Matchers.equalTo("invalid_topology"));
        io.pinion.TestApi.newUser().as().contentType("application/json").header("If-Match", version).body(document)
                .put("/v1/admin/topology").then().statusCode(403);
    }

    private static String contents(java.nio.file.Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void within(java.util.function.BooleanSupplier condition) throws InterruptedException {
        Wait.within(30_000, condition);
    }

    private CuratorFramework client() throws InterruptedException {
        CuratorFramework client = CuratorFrameworkFactory.builder().connectString(StackResource.ZOOKEEPER)
                .namespace(config.root().substring(1)).retryPolicy(new RetryOneTime(100)).build();
        client.start();
        assertTrue(client.blockUntilConnected(10, TimeUnit.SECONDS));
        return client;
    }

    private static Topology withOpenShards(Topology current, ShardRange open) {
        return new Topology(new MysqlTopology(current.mysql().shardCount(), open, current.mysql().hosts()),
                current.redis(), current.hbase());
    }
}
