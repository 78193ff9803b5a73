package io.pinion.ops;

import static io.pinion.TestApi.admin;
import static io.pinion.TestApi.newUser;
import static io.pinion.TestApi.shardOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import io.pinion.TestApi.TestUser;
import io.pinion.Wait;
import io.pinion.mysql.MysqlServers;
import io.pinion.stack.LocalStack;
import io.pinion.stack.StackTest;
import io.pinion.topology.ActiveTopology;
import io.pinion.topology.HostPort;
import io.pinion.topology.MysqlHost;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.mysqlclient.MySQLConnection;
import io.vertx.mysqlclient.MySQLConnectOptions;

/**
 * Losing {@code mysql-1}'s master under a write load, with automatic failover on ({@code failover-after} 2 s): the
 * master is killed (SIGKILL) while writers create boards on its shards and enqueuers add single jobs to a queue with
 * partitions on both hosts; the replica is promoted by the service, writes succeed again within 30 s, every board and
 * job acknowledged more than a second before the kill reads back, and the boards and jobs acknowledged but lost
 * (asynchronous replication, turned on for the run) are counted and printed. With semi-synchronous replication (the
 * stack's default), no acknowledged board or job is lost. Each run then brings the old master back (it starts
 * read-only), rebuilds it from the new master when it holds transactions that never left it, and promotes it back,
 * leaving the stack as it was.
 */
@QuarkusTest
@StackTest
@TestProfile(MysqlFailoverTest.AutoFailover.class)
@Tag("fault")
class MysqlFailoverTest {

    public static class AutoFailover implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("pinion.mysql.failover-after", "2s", "pinion.mysql.failover-check-interval", "250ms");
        }
    }

    private static final String HOST = "mysql-1";
    private static final String MASTER_SERVER = "mysql-1";
    private static final String REPLICA_SERVER = "mysql-1-replica";
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final int WRITERS = 4;
    private static final int ENQUEUERS = 2;
    private static final Pattern ID = Pattern.compile("\"id\"\\s*:\\s*\"(\\d+)\"");

    @Inject
    ActiveTopology topology;
    @Inject
    MysqlServers servers;
    @Inject
    Vertx vertx;
    @TestHTTPResource("/")
    URI base;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void asynchronousReplicationCountsItsLosses() throws Exception {
        Report report = killUnderLoad(false);
        assertTrue(
                report.lostEarly() == 0,
                "every board acknowledged more than 1 s before the kill reads back: " + report);
        assertTrue(
                report.jobsLostEarly() == 0,
                "every job acknowledged more than 1 s before the kill reads back: " + report);
    }

    @Test
    void semiSynchronousReplicationLosesNoAcknowledgedWrite() throws Exception {
        Report report = killUnderLoad(true);
        assertEquals(0, report.lost(), "no acknowledged board is lost with semi-synchronous replication: " + report);
        assertEquals(0, report.jobsLost(), "no acknowledged job is lost with semi-synchronous replication: " + report);
    }

    /** What one run saw. */
    record Report(String mode, int acknowledged, Map<Integer, Integer> failedByStatus, long recoveredMs,
            int lost, int lostEarly, Losses jobs, long divergedTransactions) {

        int jobsLost() {
            return jobs.lost();
        }

        int jobsLostEarly() {
            return jobs.lostEarly();
        }
    }

    /**
     * Of the writes acknowledged: how many, how many do not read back, and of those how many ended 1 s before the kill.
     */
    record Losses(int acknowledged, int lost, int lostEarly) {}

    private Report killUnderLoad(boolean semiSync) throws Exception {
        TestUser admin = admin();
        MysqlHost before = originalLayout(admin);
        List<TestUser> writers = new ArrayList<>();
        while (writers.size() < WRITERS) {
            TestUser user = newUser();
            if (host().serves(shardOf(user.id()))) {
                writers.add(user);
            }
        }
        boolean semiSyncBefore = "1".equals(variable(host().masterEndpoint(), "rpl_semi_sync_master_enabled"));
        semiSync(semiSync);
        String queue = "failover-" + java.util.UUID.randomUUID().toString().substring(0, 8);
        admin.as().body(Map.of("name", queue, "partitions", 4)).post("/v1/queues").then().statusCode(201);
        Load load = new Load(writers, admin, queue);
        long divergedTransactions = 0;
        Report report;
        try {
            load.start();
            Wait.pause(Duration.ofSeconds(3), "the load runs on the master before it is killed");
            LocalStack.run("kill", MASTER_SERVER);
            long killedAt = System.nanoTime();
            within(() -> load.succeededAfter(killedAt) != null);
            long recoveredMs = (load.succeededAfter(killedAt).endNanos() - killedAt) / 1_000_000;
            Wait.pause(Duration.ofSeconds(1), "the load runs on the promoted replica");
            load.stop();
            assertEquals(before.replica(), host().master(), "the replica was promoted in the topology");

            Losses boards = losses(load.acknowledged(), killedAt, write -> get("/v1/boards/" + write.id(), null));
            Losses jobs = losses(load.enqueued(), killedAt, write -> get("/v1/jobs/" + write.id(), admin.token()));
            report = new Report(semiSync ? "semi-synchronous" : "asynchronous", boards.acknowledged(),
                    load.failedByStatus(), recoveredMs, boards.lost(), boards.lostEarly(), jobs, 0);
            assertTrue(recoveredMs < 30_000, "writes succeed again within 30 s of the kill: " + report);
        } finally {
            load.stop();
            admin.as().delete("/v1/queues/" + queue);
            divergedTransactions = restore(admin, before);
            semiSync(semiSyncBefore);
        }
        report = new Report(report.mode(), report.acknowledged(), report.failedByStatus(), report.recoveredMs(),
                report.lost(), report.lostEarly(), report.jobs(), divergedTransactions);
        System.out.printf(
                "MySQL master killed under load (%s replication): %d boards and %d jobs acknowledged, failed during"
                    + " the switch by status %s, writes back after %d ms, %d acknowledged boards lost (%d acknowledged"
                    + " more than 1 s before the kill), %d acknowledged jobs lost (%d more than 1 s before), the old"
                    + " master held %d transaction(s) that never reached the replica%n",
                report.mode(),
                report.acknowledged(),
                report.jobs().acknowledged(),
                report.failedByStatus(),
                report.recoveredMs(),
                report.lost(),
                report.lostEarly(),
                report.jobsLost(),
                report.jobsLostEarly(),
                report.divergedTransactions());
        assertEquals(before, host(), "master and replica as before");
        return report;
    }

    /** The host as the stack starts it (mysql-1 master, mysql-1-replica replica), put back if a run left it swapped. */
    private MysqlHost originalLayout(TestUser admin) throws Exception {
        HostPort master = new HostPort("127.0.0.1", 33061);
        MysqlHost now = host();
        if (!now.masterEndpoint().equals(master)) {
            restore(admin, new MysqlHost(now.name(), now.replica(), now.master(), now.shards()));
        }
        // a replica an earlier run left behind without replication is rebuilt from the master first
        MysqlServers.Replication state = servers.replication(host().replicaEndpoint()).await().atMost(WAIT);
        if (!"Yes".equals(state.ioRunning()) || !"Yes".equals(state.sqlRunning())) {
            LocalStack.run("reseed", REPLICA_SERVER, "--from", MASTER_SERVER);
        }
        return host();
    }

    /**
     * Brings the killed master back, rebuilds it from the new master if it diverged, and promotes it back; the
     * transactions it held that never reached the replica (0 when it could rejoin as it was).
     */
    private long restore(TestUser admin, MysqlHost before) throws Exception {
        long diverged = 0;
        if (host().master().equals(before.master())) {
            LocalStack.run("start", MASTER_SERVER);
            return diverged;
        }
        LocalStack.run("start", MASTER_SERVER);
        assertTrue(servers.gtids(before.masterEndpoint()).await().atMost(WAIT).readOnly(),
                "the old master comes back read-only (fenced)");
        Response rejoin = admin.as().post("/v1/admin/mysql/hosts/" + HOST + "/rejoin");
        if (rejoin.statusCode() == 409) {
            assertEquals("diverged", rejoin.jsonPath().getString("error"), rejoin.asString());
            Matcher count = Pattern.compile("holds (\\d+) transaction").matcher(rejoin.jsonPath().getString("message"));
            assertTrue(count.find(), rejoin.asString());
            diverged = Long.parseLong(count.group(1));
            LocalStack.run("reseed", MASTER_SERVER, "--from", REPLICA_SERVER);
        } else {
            assertEquals(200, rejoin.statusCode(), rejoin.asString());
        }
        within(() -> {
            MysqlServers.Replication state = servers.replication(before.masterEndpoint()).await().atMost(WAIT);
            return "Yes".equals(state.ioRunning()) && "Yes".equals(state.sqlRunning());
        });
        admin.as().post("/v1/admin/mysql/hosts/" + HOST + "/promote").then().statusCode(200);
        admin.as().post("/v1/admin/mysql/hosts/" + HOST + "/rejoin").then().statusCode(200);
        within(() -> {
            MysqlServers.Replication state = servers.replication(before.replicaEndpoint()).await().atMost(WAIT);
            return "Yes".equals(state.ioRunning()) && "Yes".equals(state.sqlRunning());
        });
        return diverged;
    }

    /**
     * Turns lossless semi-synchronous replication on or off on both servers of the host (as the stack's setting does).
     */
    private void semiSync(boolean on) throws Exception {
        int flag = on ? 1 : 0;
        for (HostPort server : List.of(host().masterEndpoint(), host().replicaEndpoint())) {
            ops(server, "SET GLOBAL rpl_semi_sync_master_wait_point = AFTER_SYNC",
                    "SET GLOBAL rpl_semi_sync_master_timeout = 5000",
                    "SET GLOBAL rpl_semi_sync_master_enabled = " + flag,
                    "SET GLOBAL rpl_semi_sync_slave_enabled = " + flag);
        }
        // the replica's IO thread negotiates semi-sync when it connects
        ops(host().replicaEndpoint(), "STOP SLAVE IO_THREAD", "START SLAVE IO_THREAD");
        if (on) {
            within(() -> "ON".equals(status(host().masterEndpoint(), "Rpl_semi_sync_master_status"))
                    && !"0".equals(status(host().masterEndpoint(), "Rpl_semi_sync_master_clients")));
        }
    }

    private String variable(HostPort server, String name) {
        return connect(server).chain(connection -> connection.query("SELECT @@GLOBAL." + name).execute()
                        .map(rows -> String.valueOf(rows.iterator().next().getValue(0))).eventually(connection::close))
                .await().atMost(WAIT);
    }

    private String status(HostPort server, String variable) {
        return connect(server).chain(connection -> connection.query("SHOW GLOBAL STATUS LIKE '" + variable + "'")
                        .execute().map(rows -> rows.iterator().next().getString(1)).eventually(connection::close))
                .await().atMost(WAIT);
    }

    private void ops(HostPort server, String... statements) {
        connect(server).chain(connection -> {
            io.smallrye.mutiny.Uni<Void> chain = io.smallrye.mutiny.Uni.createFrom().voidItem();
            for (String statement : statements) {
                chain = chain.chain(() -> connection.query(statement).execute().replaceWithVoid());
            }
            return chain.eventually(connection::close);
        }).await().atMost(WAIT);
    }

    private io.smallrye.mutiny.Uni<io.vertx.mutiny.sqlclient.SqlConnection> connect(HostPort server) {
        return MySQLConnection.connect(vertx, new MySQLConnectOptions().setHost(server.host()).setPort(server.port())
                .setUser("pinion").setPassword("pinion")).map(connection -> connection);
    }

    private MysqlHost host() {
        return topology.get().mysql().hosts().stream().filter(h -> h.name().equals(HOST)).findFirst().orElseThrow();
    }

    /** Reads each acknowledged write back (200, or 404 when lost); any other answer fails the test. */
    private Losses losses(List<Write> writes, long killedAt, ReadBack read) throws Exception {
        int lost = 0;
        int lostEarly = 0;
        for (Write write : writes) {
            int status = read.status(write);
            if (status == 404) {
                lost++;
                if (write.endNanos() < killedAt - TimeUnit.SECONDS.toNanos(1)) {
                    lostEarly++;
                }
            } else {
                assertEquals(200, status, write.id() + " reads");
            }
        }
        return new Losses(writes.size(), lost, lostEarly);
    }

    @FunctionalInterface
    private interface ReadBack {
        int status(Write write) throws Exception;
    }

    private int get(String path, String token) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(10)).GET();
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString()).statusCode();
    }

    private static void within(BooleanSupplier condition) throws InterruptedException {
        Wait.within(WAIT, condition);
    }

    /** One acknowledged write: the board's id and when its request began and ended. */
    record Write(String id, long startNanos, long endNanos) {
    }

    /**
     * Writers creating boards on the host's shards, and enqueuers adding single jobs to the queue, each one request
     * at a time, until stopped.
     */
    private final class Load {
        private final List<TestUser> users;
        private final TestUser enqueuer;
        private final String queue;
        private final ConcurrentLinkedQueue<Write> acknowledged = new ConcurrentLinkedQueue<>();
        private final ConcurrentLinkedQueue<Write> enqueued = new ConcurrentLinkedQueue<>();
        private final ConcurrentLinkedQueue<Integer> failed = new ConcurrentLinkedQueue<>();
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final ExecutorService threads;

        Load(List<TestUser> users, TestUser enqueuer, String queue) {
            this.users = users;
            this.enqueuer = enqueuer;
            this.queue = queue;
            this.threads = Executors.newFixedThreadPool(users.size() + ENQUEUERS);
        }

        void start() {
            for (TestUser user : users) {
                threads.submit(() -> write(user, "/v1/boards", n -> "{\"name\":\"failover " + n + "\"}", acknowledged));
            }
            for (int i = 0; i < ENQUEUERS; i++) {
                threads.submit(() -> write(enqueuer, "/v1/queues/" + queue + "/jobs",
                        n -> "{\"body\":\"failover " + n + "\"}", enqueued));
            }
        }

        private void write(TestUser user, String path, java.util.function.IntFunction<String> body,
                ConcurrentLinkedQueue<Write> into) {
            int n = 0;
            while (running.get()) {
                long start = System.nanoTime();
                int status;
                String answer = "";
                try {
                    HttpResponse<String> response = http.send(HttpRequest.newBuilder(base.resolve(path))
                            .timeout(Duration.ofSeconds(10))
                            .header("Content-Type", "application/json")
                            .header("Authorization", "Bearer " + user.token())
                            .POST(HttpRequest.BodyPublishers.ofString(body.apply(n++)))
                            .build(), HttpResponse.BodyHandlers.ofString());
                    status = response.statusCode();
                    answer = response.body();
                } catch (Exception e) {
                    status = 0;
                }
                Matcher id = ID.matcher(answer);
                if (status == 201 && id.find()) {
                    into.add(new Write(id.group(1), start, System.nanoTime()));
                } else {
                    failed.add(status);
                    try {
                        Wait.pause(Duration.ofMillis(20), "a writer's back-off after a failed request");
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }
        }

        /** The first write that began after the moment and was acknowledged, if any. */
        Write succeededAfter(long nanos) {
            return acknowledged.stream().filter(w -> w.startNanos() > nanos).findFirst().orElse(null);
        }

        List<Write> acknowledged() {
            return List.copyOf(acknowledged);
        }

        List<Write> enqueued() {
            return List.copyOf(enqueued);
        }

        Map<Integer, Integer> failedByStatus() {
            Map<Integer, Integer> counts = new TreeMap<>();
            failed.forEach(status -> counts.merge(status, 1, Integer::sum));
            return counts;
        }

        void stop() throws InterruptedException {
            running.set(false);
            threads.shutdown();
            threads.awaitTermination(30, TimeUnit.SECONDS);
        }
    }
}
