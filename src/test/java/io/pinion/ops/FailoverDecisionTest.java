package io.pinion.ops;

import static io.pinion.TestApi.admin;
import static io.pinion.Wait.pause;
import static io.pinion.Wait.within;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import io.pinion.TestApi.TestUser;
import io.pinion.mysql.MysqlServers;
import io.pinion.stack.LocalStack;
import io.pinion.stack.StackResource;
import io.pinion.stack.StackTest;
import io.pinion.topology.ActiveTopology;
import io.pinion.topology.MysqlHost;
import io.pinion.zookeeper.ZookeeperConfig;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;

/**
 * One failover decision for the cluster: the instance under test leads (it is the only real one), and two more
 * instances' reports are published beside its own in ZooKeeper, as other instances publish theirs. With mysql-1's
 * master really killed, the leader promotes nothing while the other two report it reachable (the leader is the one
 * cut off), and promotes once they report it unreachable too (a majority), within failover-after + 2 s. An operator's
 * promotion waits for every live instance to be on the new topology before it opens the new master and names those
 * that were not.
 */
@QuarkusTest
@StackTest
@TestProfile(MysqlFailoverTest.AutoFailover.class)
@Tag("fault")
class FailoverDecisionTest {

    private static final String HOST = "mysql-1";
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final long FAILOVER_AFTER_MS = 2_000;

    @Inject
    ActiveTopology topology;
    @Inject
    MysqlServers servers;
    @Inject
    ZookeeperConfig zookeeper;

    @Test
    void theLeaderPromotesOnlyWhenMostInstancesLoseTheMaster() throws Exception {
        TestUser operator = admin();
        MysqlHost before = host();
        try (CuratorFramework others = CuratorFrameworkFactory.builder().connectString(StackResource.ZOOKEEPER)
                .namespace(zookeeper.root().substring(1)).retryPolicy(new RetryOneTime(100)).build()) {
            others.start();
            assertTrue(others.blockUntilConnected(10, TimeUnit.SECONDS));
            long version = topology.versioned().version();
            report(others, "other-a", version, false, true);
            report(others, "other-b", version, false, true);

            LocalStack.run("kill", HOST);
            long killedAt = System.nanoTime();
            pause(Duration.ofMillis(FAILOVER_AFTER_MS + 3_000),
                    "the failover delay passes while most instances reach the master");
            assertEquals(before.master(), host().master(), "no promotion while most instances reach the master");

            // they lose it too (and acknowledge any topology version at once)
            report(others, "other-a", Long.MAX_VALUE / 2, true, false);
            report(others, "other-b", Long.MAX_VALUE / 2, true, false);
            long reportedAt = System.nanoTime();
            within(WAIT.toMillis(), () -> !host().master().equals(before.master()));
            long tookMs = (System.nanoTime() - reportedAt) / 1_000_000;
            System.out.printf(
                    "promoted %d ms after most instances reported the master unreachable (%d ms after the kill)%n",
                    tookMs, (System.nanoTime() - killedAt) / 1_000_000);
            assertTrue(tookMs < FAILOVER_AFTER_MS + 2_000, "promoted after " + tookMs + " ms");
            assertEquals(before.replica(), host().master());
            within(WAIT.toMillis(), () -> !servers.gtids(before.replicaEndpoint()).await().atMost(WAIT).readOnly());
            // the old master comes back fenced, and rejoins as the new master's replica
            LocalStack.run("start", HOST);
            assertTrue(
                    servers.gtids(before.masterEndpoint()).await().atMost(WAIT).readOnly(), "it comes back read-only");
            operator.as().post("/v1/admin/mysql/hosts/" + HOST + "/rejoin").then().statusCode(200);
            within(WAIT.toMillis(), () -> {
                MysqlServers.Replication state = servers.replication(before.masterEndpoint()).await().atMost(WAIT);
                return "Yes".equals(state.ioRunning()) && "Yes".equals(state.sqlRunning());
            });

            // other-b stays on the old topology: the promotion back waits for it, then names it
            report(others, "other-a", Long.MAX_VALUE / 2, false, false);
            report(others, "other-b", version, false, false);
            JsonPath back = operator.as().post("/v1/admin/mysql/hosts/" + HOST + "/promote").then().statusCode(200)
                    .extract().jsonPath();
            assertEquals(List.of("other-b"), back.getList("notAcknowledged"));
            assertEquals(before.master(), host().master());
        } finally {
            if (!host().master().equals(before.master())) {
                LocalStack.run("start", HOST);
            }
        }
        operator.as().post("/v1/admin/mysql/hosts/" + HOST + "/rejoin").then().statusCode(200);
    }

    /**
     * A view as another instance publishes it: the topology version it runs and whether it reaches mysql-1's master.
     */
    private static void report(
            CuratorFramework client, String instance, long version, boolean unreachable, boolean create)
            throws Exception {
        String json = "{\"instance\":\"" + instance + "\",\"topologyVersion\":" + version
                + ",\"checksMysql\":true,\"mysqlUnreachable\":"
                + (unreachable ? "[\"" + HOST + "\"]" : "[]") + "}";
        byte[] data = json.getBytes(StandardCharsets.UTF_8);
        if (create) {
            client.create()
                    .creatingParentContainersIfNeeded()
                    .withMode(CreateMode.EPHEMERAL)
                    .forPath("/instances/" + instance, data);
        } else {
            client.setData().forPath("/instances/" + instance, data);
        }
    }

    private MysqlHost host() {
        return topology.get().mysql().hosts().stream().filter(h -> h.name().equals(HOST)).findFirst().orElseThrow();
    }
}
