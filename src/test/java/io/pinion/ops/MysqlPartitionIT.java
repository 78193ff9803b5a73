package io.pinion.ops;

import static io.pinion.Wait.pause;
import static io.pinion.Wait.within;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import io.pinion.id.PinionId;
import io.pinion.stack.LocalStack;
import io.pinion.stack.PackagedService;
import io.pinion.stack.StackResource;
import io.pinion.stack.TcpProxy;
import io.restassured.http.ContentType;
import io.restassured.response.Response;

/**
 * A network partition between one instance and a MySQL master, then the master's death, in a cluster of three
 * packaged instances with automatic failover on ({@code failover-after} 2 s). Instance C reaches mysql-1's master
 * only through a TCP proxy ({@code pinion.mysql.connect-via}); the proxy is cut while A and B still reach the
 * master: C's mysql-1 shards answer fast 503s and nobody promotes (one of three is no majority). Then the master
 * is SIGKILLed under four writers: exactly one promotion, within {@code failover-after} + 2 s, every instance on the
 * new topology version, the old master read-only (fenced) when it comes back, and, with semi-synchronous replication,
 * no acknowledged write lost. The stack is put back as it was.
 */
@Tag("fault")
class MysqlPartitionIT {

    private static final String ROOT = "/pinion-it-" + UUID.randomUUID();
    private static final int PROXY_PORT = 43061;
    private static final long FAILOVER_AFTER_MS = 2_000;
    /** Whether the stack replicated semi-synchronously before the test (it is put back so). */
    private static boolean semiSyncBefore = true;
    /**
     * The topology file the instances seed ZooKeeper from and copy every change into, and that bin/stack reads to
     * decide which MariaDB server it makes writable when it starts one (LocalStack passes it).
     */
    private static final java.nio.file.Path TOPOLOGY = LocalStack.repoRoot().resolve("target/test-topology.json");

    private static final String[] FAILOVER = {
        "-Dpinion.zookeeper.root=" + ROOT,
        "-Dpinion.topology.file=" + TOPOLOGY,
        "-Dpinion.rate-limit.enabled=false", // one address signs up users until four land on mysql-1
        "-Dpinion.mysql.failover-after=" + FAILOVER_AFTER_MS + "ms",
        "-Dpinion.mysql.failover-check-interval=250ms"
    };
    private static final PackagedService A = new PackagedService(18201, "partition-a.log", FAILOVER);
    private static final PackagedService B = new PackagedService(18203, "partition-b.log", FAILOVER);
    private static final PackagedService C = new PackagedService(18205, "partition-c.log", concat(FAILOVER,
            "-Dpinion.mysql.connect-via=127.0.0.1:33061=127.0.0.1:" + PROXY_PORT));

    @Test
    void aCutOffInstancePromotesNothingAndTheMastersDeathPromotesOnce() throws Exception {
        LocalStack.run("up");
        try (java.io.InputStream local =
                MysqlPartitionIT.class.getClassLoader().getResourceAsStream("topology/local.json")) {
            java.nio.file.Files.copy(local, TOPOLOGY, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        assertEquals("0", sql(33061, "SELECT @@read_only"), "mysql-1 is the writable master, as bin/stack starts it");
        TcpProxy proxy = new TcpProxy(PROXY_PORT, "127.0.0.1", 33061).heal();
        ExecutorService threads = Executors.newCachedThreadPool();
        AtomicBoolean running = new AtomicBoolean(true);
        java.util.concurrent.atomic.AtomicReference<String> operator =
                new java.util.concurrent.atomic.AtomicReference<>();
        try {
            PackagedService.startAll(List.of(A, B, C));
            String admin = A.admin();
            operator.set(admin);
            List<String> writers = new ArrayList<>();
            while (writers.size() < 4) {
                String name = "partition_" + UUID.randomUUID().toString().substring(0, 8);
                String token = A.token(name);
                String id = given().header("Authorization", "Bearer " + token).get(A.base() + "/v1/me").then()
                        .statusCode(200).extract().path("id");
                if (PinionId.parse(id).shard() < 32) {
                    writers.add(token);
                }
            }
            semiSyncBefore = semiSyncEnabled();
            semiSync(true);
            pause(Duration.ofSeconds(2), "every instance publishes its view and the leader is elected");
            String version = etag(A, admin);

            // C is cut off from mysql-1's master; A and B still reach it
            proxy.cut();
            String writer = writers.get(0);
            within(15_000, () -> {
                long started = System.nanoTime();
                int status = createBoard(C, writer).statusCode();
                return status == 503 && System.nanoTime() - started < TimeUnit.MILLISECONDS.toNanos(300);
            }, "C's mysql-1 shards answer fast 503s");
            pause(Duration.ofMillis(FAILOVER_AFTER_MS + 3_000), "the failover delay passes with one instance cut off");
            assertEquals(version, etag(A, admin), "no promotion: one instance of three lost the master");
            assertEquals(201, createBoard(A, writer).statusCode(), "A still writes to the master");
            assertEquals(0, promotions(), "no promotion");

            // the master dies under four writers (through A and B)
            ConcurrentLinkedQueue<String> acknowledged = new ConcurrentLinkedQueue<>();
            for (int i = 0; i < writers.size(); i++) {
                PackagedService through = i % 2 == 0 ? A : B;
                String token = writers.get(i);
                threads.submit(() -> {
                    while (running.get()) {
                        Response created = createBoard(through, token);
                        if (created.statusCode() == 201) {
                            acknowledged.add(created.jsonPath().getString("id"));
                        }
                    }
                });
            }
            pause(Duration.ofSeconds(2), "the writers run on the master before it is killed");
            long killedAt = System.currentTimeMillis();
            LocalStack.run("kill", "mysql-1");
            within(30_000, () -> !version.equals(etag(A, admin)), "a promotion");
            long seenMs = System.currentTimeMillis() - killedAt;
            // the promotion's own time: when the new topology was written to ZooKeeper, not when a poll saw it
            long promotedMs = topologyWrittenAt() - killedAt;
            String promoted = etag(A, admin);
            within(5_000, () -> promoted.equals(etag(B, admin)) && promoted.equals(etag(C, admin)),
                    "every instance on the new topology version");
            int acknowledgedAtPromotion = acknowledged.size();
            within(30_000, () -> acknowledged.size() > acknowledgedAtPromotion + 20, "writes succeed again");
            running.set(false);
            threads.shutdown();
            assertTrue(threads.awaitTermination(30, TimeUnit.SECONDS));
            pause(Duration.ofSeconds(3), "time for a second promotion, were there one");
            assertEquals(1, promotions(), "exactly one promotion in the cluster");
            int lost = 0;
            for (String board : acknowledged) {
                int status = given().get(A.base() + "/v1/boards/" + board).statusCode();
                assertTrue(status == 200 || status == 404, board + ": " + status);
                lost += status == 404 ? 1 : 0;
            }
            LocalStack.run("start", "mysql-1");
            String fenced = sql(33061, "SELECT @@read_only");
            System.out.printf(
                    "Partition: C cut off from mysql-1's master promoted nothing; the master SIGKILLed under 4 writers"
                        + " was promoted once after %d ms (failover-after %d ms; seen by a poll after %d ms), every"
                        + " instance on the new version; %d boards acknowledged, %d lost; the old master came back"
                        + " read_only=%s%n",
                    promotedMs, FAILOVER_AFTER_MS, seenMs, acknowledged.size(), lost, fenced);
            // measured 3.05-3.18 s on the shared 2-core machine (docs/benchmarks.md)
            assertTrue(
                    promotedMs <= FAILOVER_AFTER_MS + 2_000,
                    "promoted within failover-after + 2 s: " + promotedMs + " ms");
            assertEquals(0, lost, "no acknowledged write lost");
            assertEquals("1", fenced, "the old master comes back read-only (fenced)");
        } finally {
            running.set(false);
            threads.shutdownNow();
            proxy.close();
            try {
                if (operator.get() != null) {
                    putBack(operator.get());
                }
            } finally {
                for (PackagedService instance : List.of(A, B, C)) {
                    instance.kill();
                }
            }
        }
    }

    /** Rejoins the old master (rebuilt from the new one if it diverged), promotes it back and rejoins the replica. */
    private static void putBack(String admin) throws Exception {
        LocalStack.run("start", "mysql-1");
        String master = given().header("Authorization", "Bearer " + admin).get(A.base() + "/v1/admin/topology").then()
                .statusCode(200).extract().path("mysql.hosts.find { it.name == 'mysql-1' }.master");
        if (!"127.0.0.1:33061".equals(master)) {
            Response rejoin = post(A, admin, "/v1/admin/mysql/hosts/mysql-1/rejoin");
            if (rejoin.statusCode() == 409) {
                LocalStack.run("reseed", "mysql-1", "--from", "mysql-1-replica");
            }
            within(60_000, () -> replicating(33061), "the old master replicates from the new one");
            assertEquals(200, post(A, admin, "/v1/admin/mysql/hosts/mysql-1/promote").statusCode(), "promoted back");
            assertEquals(200, post(A, admin, "/v1/admin/mysql/hosts/mysql-1/rejoin").statusCode(), "replica rejoined");
            within(60_000, () -> replicating(33071), "the replica replicates again");
        }
        semiSync(semiSyncBefore);
    }

    private static boolean replicating(int port) {
        try {
            String status = sql(port, "SHOW SLAVE STATUS\\G", false);
            return status.contains("Slave_IO_Running: Yes") && status.contains("Slave_SQL_Running: Yes");
        } catch (Exception e) {
            return false;
        }
    }

    /** Whether mysql-1's master replicates semi-synchronously (the stack's default). */
    private static boolean semiSyncEnabled() throws Exception {
        return "1".equals(sql(33061, "SELECT @@GLOBAL.rpl_semi_sync_master_enabled"));
    }

    /** Lossless semi-synchronous replication between mysql-1 and its replica, on or off. */
    private static void semiSync(boolean on) throws Exception {
        int flag = on ? 1 : 0;
        for (int port : new int[] {33061, 33071}) {
            sql(
                    port,
                    "SET GLOBAL rpl_semi_sync_master_wait_point = AFTER_SYNC; SET GLOBAL rpl_semi_sync_master_timeout"
                            + " = 5000; SET GLOBAL rpl_semi_sync_master_enabled = " + flag
                            + "; SET GLOBAL rpl_semi_sync_slave_enabled = " + flag);
        }
        sql(33071, "STOP SLAVE IO_THREAD; START SLAVE IO_THREAD");
        if (on) {
            within(
                    30_000,
                    () -> {
                        try {
                            return sql(33061, "SHOW GLOBAL STATUS LIKE 'Rpl_semi_sync_master_clients'")
                                    .matches("(?s).*\\t[1-9].*");
                        } catch (Exception e) {
                            return false;
                        }
                    },
                    "the replica acknowledges semi-synchronously");
        }
    }

    /** When the topology znode was last written (ZooKeeper's own modification time, this machine's clock). */
    private static long topologyWrittenAt() throws Exception {
        try (CuratorFramework zk = CuratorFrameworkFactory.builder().connectString(StackResource.ZOOKEEPER)
                .namespace(ROOT.substring(1)).retryPolicy(new RetryOneTime(100)).build()) {
            zk.start();
            assertTrue(zk.blockUntilConnected(10, TimeUnit.SECONDS), "ZooKeeper reachable");
            return zk.checkExists().forPath("/topology").getMtime();
        }
    }

    /** Promotions made by the three instances together ({@code pinion_mysql_promotions_seconds_count}). */
    private static int promotions() {
        int total = 0;
        for (PackagedService instance : List.of(A, B, C)) {
            String metrics = given().get(
                            instance.base().replaceAll(":(\\d+)$", "") + ":" + (port(instance) + 1) + "/q/metrics")
                    .asString();
            for (String line : metrics.split("\n")) {
                if (line.startsWith("pinion_mysql_promotions_seconds_count")) {
                    total += (int) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
                }
            }
        }
        return total;
    }

    private static int port(PackagedService instance) {
        return Integer.parseInt(instance.base().substring(instance.base().lastIndexOf(':') + 1));
    }

    private static Response createBoard(PackagedService instance, String token) {
        try {
            return given().contentType(ContentType.JSON).header("Authorization", "Bearer " + token)
                    .body(Map.of("name", "partition " + System.nanoTime())).post(instance.base() + "/v1/boards");
        } catch (RuntimeException e) {
            return given().get(instance.base() + "/q/health/live"); // the request failed outright: not acknowledged
        }
    }

    private static String etag(PackagedService instance, String admin) {
        return given().header("Authorization", "Bearer " + admin)
                .get(instance.base() + "/v1/admin/topology")
                .header("ETag");
    }

    private static Response post(PackagedService instance, String admin, String path) {
        return given().header("Authorization", "Bearer " + admin).post(instance.base() + path);
    }

    /** Runs statements with the mysql client on the local server at {@code port}; its output. */
    private static String sql(int port, String statements) throws Exception {
        return sql(port, statements, true);
    }

    /** The same; {@code bare}: without column names (a vertical {@code \G} answer needs them). */
    private static String sql(int port, String statements, boolean bare) throws Exception {
        List<String> command = new ArrayList<>(List.of("mysql", "-h127.0.0.1", "-P" + port, "-upinion", "-ppinion"));
        if (bare) {
            command.add("-N");
        }
        command.addAll(List.of("-e", statements));
        Process client = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(client.getInputStream().readAllBytes()).trim();
        assertEquals(0, client.waitFor(), "mysql on " + port + ": " + output);
        return output;
    }

    private static String[] concat(String[] first, String last) {
        String[] all = java.util.Arrays.copyOf(first, first.length + 1);
        all[first.length] = last;
        return all;
    }
}
