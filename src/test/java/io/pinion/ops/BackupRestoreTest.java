package io.pinion.ops;

import static io.pinion.TestApi.admin;
import static io.pinion.TestApi.createBoard;
import static io.pinion.TestApi.createPin;
import static io.pinion.TestApi.newUser;
import static io.pinion.TestApi.shardOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import jakarta.inject.Inject;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.replication.ReplicationPeerDescription;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.pinion.TestApi.TestUser;
import io.pinion.Wait;
import io.pinion.feed.FeedSource;
import io.pinion.feed.PoolKey;
import io.pinion.feed.fanout.FeedJobs;
import io.pinion.feed.store.FeedTables;
import io.pinion.feed.store.MaterializedFeed;
import io.pinion.feed.store.MaterializedKey;
import io.pinion.feed.store.PoolStore;
import io.pinion.graph.FollowEvents;
import io.pinion.graph.GraphKeys;
import io.pinion.graph.VirtualShards;
import io.pinion.id.PinionId;
import io.pinion.mysql.ShardDatabase;
import io.pinion.stack.LocalStack;
import io.pinion.stack.StackTest;
import io.pinion.topology.ActiveTopology;
import io.pinion.topology.HostPort;
import io.pinion.topology.MysqlHost;
import io.quarkus.test.junit.QuarkusTest;

/**
 * {@code bin/backup} of the local stack, then {@code bin/restore} into a fresh stack beside it (its own directory
 * under target/, ports moved by the first of 1000, 1100 … 1700 whose ports are all free): the restored stack holds what
 * the manifest recorded (rows of every table of the 64 shard databases, on masters and replicas; Redis keys; HBase rows
 * on the primary and, for the tables it had, the standby), its replicas replicate from the backup's GTID position, and
 * the users, boards, pins, follows and feeds this test wrote before the backup (and left alone after) are the same as
 * on the live stack.
 */
@QuarkusTest
@StackTest
class BackupRestoreTest {

    /** Every port of the stack, before the offset. */
    private static final List<Integer> STACK_PORTS = List.of(33061, 33062, 33071, 33072, 63791, 63792, 63801, 63802,
            26381, 26382, 26383, 21811, 16100, 16120, 21812, 16200, 16220, 21821, 21822, 21823, 28881, 28882, 28883,
            38881, 38882, 38883);
    /** The restored stack's port offset: chosen right before the restore, and again if a port was taken meanwhile. */
    private static int OFFSET = freeOffset(1000);
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final long JOBS_MS = 60_000;
    private static final List<String> FEED_QUEUES = List.of(FollowEvents.QUEUE, FeedJobs.FANOUT, FeedJobs.POOL_INSERT,
            FeedJobs.PERSIST, FeedJobs.RELATED);
    private static final Map<String, Integer> BASE_PORTS = Map.of("mysql-1", 33061, "mysql-2", 33062,
            "mysql-1-replica", 33071, "mysql-2-replica", 33072, "redis-1", 63791, "redis-2", 63792,
            "redis-1-replica", 63801, "redis-2-replica", 63802);
    /** A Sentinel of the live stack, and the instance the test fails over before its backup. */
    private static final int SENTINEL = 26381;
    private static final String FAILED_OVER = "redis-1";
    /** The MySQL host whose replica the test promotes before its backup. */
    private static final String PROMOTED = "mysql-2";

    /**
     * The first offset from {@code from} at which every port of the restored stack can be bound now. The moved MySQL
     * ports lie in the kernel's ephemeral range, where an outgoing connection of this machine may take one between
     * this check and the server's start: the restore is then tried once more at another offset.
     */
    private static int freeOffset(int from) {
        for (int candidate = from; candidate <= 1700; candidate += 100) {
            int offset = candidate;
            if (STACK_PORTS.stream().allMatch(port -> bindable(port + offset))) {
                return offset;
            }
        }
        throw new IllegalStateException("no port offset from " + from + " to 1700 has all of the stack's ports free");
    }

    private static boolean bindable(int port) {
        try (java.net.ServerSocket socket = new java.net.ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new java.net.InetSocketAddress("127.0.0.1", port));
            return true;
        } catch (java.io.IOException e) {
            return false;
        }
    }

    @Inject
    ActiveTopology topology;
    @Inject
    PoolStore pools;
    @Inject
    MaterializedFeed materialized;
    @Inject
    VirtualShards virtualShards;

    @Test
    void aBackupRestoresIntoAFreshStackWithTheSameRowsKeysAndFeeds() throws Exception {
        // Data: an author with pins, three followers (one of them reads the home feed, so its feed is materialized),
        // a follow between two of the followers; then the queues are left to finish, so nothing touches it after.
        TestUser author = newUser();
        String board = createBoard(author, "backed-up");
        List<TestUser> followers = List.of(newUser(), newUser(), newUser());
        for (TestUser follower : followers) {
            follower.as().put("/v1/me/following/users/" + author.id()).then().statusCode(200);
        }
        followers.get(1).as().put("/v1/me/following/users/" + followers.get(2).id()).then().statusCode(200);
        List<String> pins = List.of(createPin(author, board, "first"), createPin(author, board, "second"));
        List<Long> pinIds = pins.stream().map(Long::parseLong).toList();
        for (TestUser follower : followers) {
            within(() -> pooled(follower).containsAll(pinIds));
        }
        TestUser reader = followers.get(0);
        reader.as().get("/v1/me/home-feed").then().statusCode(200);
        within(() -> shown(reader).containsAll(pinIds));
        TestUser admin = admin();
        within(() -> idle(admin));

        Path root = LocalStack.repoRoot();
        Path backup = root.resolve("target/backup-test/" + System.currentTimeMillis());
        Path restored = root.resolve("target/restored-stack");
        Map<String, String> restoredEnv = Map.of("PINION_STACK_DIR", restored.toString(),
                "PINION_STACK_PORT_OFFSET", Integer.toString(OFFSET));
        if (Files.exists(restored)) { // left by an interrupted run
            run(List.of("bin/stack", "down"), restoredEnv, Duration.ofMinutes(2));
            delete(restored);
        }
        // the backup is taken after a Sentinel failover and a MySQL promotion: redis-1's data is on the server named
        // redis-1-replica and mysql-2's on mysql-2-replica, and the restore must still put each where the restored
        // stack's master of that instance or host is
        sentinelFailover(BASE_PORTS.get(FAILED_OVER + "-replica"));
        admin.as().post("/v1/admin/mysql/hosts/" + PROMOTED + "/promote").then().statusCode(200)
                .body("master", org.hamcrest.Matchers.endsWith(":" + BASE_PORTS.get(PROMOTED + "-replica")));
        admin.as().post("/v1/admin/mysql/hosts/" + PROMOTED + "/rejoin").then().statusCode(200)
                .body("running", org.hamcrest.Matchers.equalTo(true));
        try {
            long t0 = System.nanoTime();
            run(
                    List.of("bin/backup", backup.toString()),
                    Map.of("PINION_STACK_PORT_OFFSET", "0"),
                    Duration.ofMinutes(5));
            long t1 = System.nanoTime();
            JsonNode manifest = new ObjectMapper().readTree(backup.resolve("manifest.json").toFile());
            notReadableByOthers(backup);
            assertEquals(PROMOTED + "-replica", manifest.get("mysql").get(PROMOTED).get("server").asText(),
                    "the dump of " + PROMOTED + " came from its master at the time");
            restoredEnv = restore(backup, restored);
            System.out.printf("backup took %d ms, restore (with a fresh stack) %d ms%n",
                    (t1 - t0) / 1_000_000, (System.nanoTime() - t1) / 1_000_000);

            mysqlAsRecorded(manifest);
            List<String> objects = new ArrayList<>(List.of(author.id(), board));
            objects.addAll(pins);
            followers.forEach(f -> objects.add(f.id()));
            for (String id : objects) {
                assertEquals(liveRow(id), restoredRow(id), "row of " + id);
            }

            redisAsRecorded(manifest);
            List<TestUser> users = new ArrayList<>(followers);
            users.add(author);
            for (TestUser user : users) {
                for (String suffix : List.of(GraphKeys.FOLLOWING, GraphKeys.FOLLOWERS, GraphKeys.IMPLICIT_FOLLOWING,
                        GraphKeys.IMPLICIT_FOLLOWERS)) {
                    String key = GraphKeys.user(
                            virtualShards.ofUser(Long.parseLong(user.id())), Long.parseLong(user.id()), suffix);
                    assertEquals(liveRedis("ZRANGE", key, "0", "-1", "WITHSCORES"),
                            restoredRedis("ZRANGE", key, "0", "-1", "WITHSCORES"), key);
                    assertEquals(liveRedis("ZCARD", key), restoredRedis("ZCARD", key), key);
                }
            }
            String authorFollowers = GraphKeys.user(virtualShards.ofUser(Long.parseLong(author.id())),
                    Long.parseLong(author.id()), GraphKeys.FOLLOWERS);
            assertEquals("3", restoredRedis("ZCARD", authorFollowers), "the author's three followers");

            hbaseAsRecorded(manifest, users, reader);
        } finally {
            run(List.of("bin/stack", "down"), restoredEnv, Duration.ofMinutes(2));
            delete(restored);
            delete(backup);
            String[] left = backup.getParent().toFile().list();
            if (left != null && left.length == 0) {
                delete(backup.getParent());
            }
            sentinelFailover(BASE_PORTS.get(FAILED_OVER)); // the live stack back as it was
            admin.as().post("/v1/admin/mysql/hosts/" + PROMOTED + "/promote").then().statusCode(200);
            admin.as().post("/v1/admin/mysql/hosts/" + PROMOTED + "/rejoin").then().statusCode(200)
                    .body("running", org.hamcrest.Matchers.equalTo(true));
        }
        assertFalse(Files.exists(restored));
    }

    // -------------------------------------------------------------------------------------------------------------
    // MySQL
    // -------------------------------------------------------------------------------------------------------------

    /** Every table of the manifest has its rows on the restored master and replica; GTID state and roles. */
    private void mysqlAsRecorded(JsonNode manifest) {
        Set<String> shardDatabases = new TreeSet<>();
        for (Iterator<Map.Entry<String, JsonNode>> hosts = manifest.get("mysql").fields(); hosts.hasNext();) {
            Map.Entry<String, JsonNode> host = hosts.next();
            JsonNode dump = host.getValue().get("dump");
            Map<String, Long> recorded = new TreeMap<>();
            dump.get("tables").fields().forEachRemaining(t -> recorded.put(t.getKey(), t.getValue().asLong()));
            recorded.keySet().stream().map(t -> t.substring(0, t.indexOf('.')))
                    .filter(db -> db.matches("db\\d{5}")).forEach(shardDatabases::add);
            String query = recorded.keySet().stream()
                    .map(t -> "SELECT '" + t + "', COUNT(*) FROM `" + t.replace(".", "`.`") + "`")
                    .collect(Collectors.joining(" UNION ALL "));
            String master = host.getKey();
            assertEquals(
                    recorded, counts(sql(restoredPort(master), query)), "rows per table on the restored " + master);
            assertEquals(recorded, counts(sql(restoredPort(master + "-replica"), query)),
                    "rows per table on the restored " + master + "-replica");

            String gtid = dump.get("gtidPosition").asText();
            assertNotEquals("", gtid, master + " had a GTID position");
            assertEquals(gtid + "\t0", sql(restoredPort(master), "SELECT @@gtid_binlog_pos, @@read_only").strip(),
                    "the restored " + master + " is a writable master at the backup's position");
            String replica = run(
                    List.of(
                            "mariadb",
                            "--no-defaults",
                            "-h127.0.0.1",
                            "-P" + restoredPort(master + "-replica"),
                            "-upinion",
                            "-ppinion",
                            "-e",
                            "SHOW SLAVE STATUS\\G"),
                    Map.of(),
                    Duration.ofMinutes(1));
            assertTrue(
                    replica.contains("Slave_IO_Running: Yes") && replica.contains("Slave_SQL_Running: Yes"), replica);
            assertEquals(gtid + "\t1", sql(restoredPort(master + "-replica"), "SELECT @@gtid_slave_pos, @@read_only")
                    .strip(), "the restored replica, read-only, starts at the backup's position");
            Set<String> databases = new TreeSet<>(Arrays.asList(sql(restoredPort(master),
                    "SELECT schema_name FROM information_schema.schemata WHERE schema_name NOT IN"
                            + " ('mysql', 'information_schema', 'performance_schema', 'sys')").strip().split("\n")));
            assertEquals(
                    recorded.keySet().stream()
                            .map(t -> t.substring(0, t.indexOf('.')))
                            .collect(Collectors.toSet()),
                    databases,
                    "the restored " + master + "'s databases");
        }
        assertEquals(64, shardDatabases.size(), "all 64 shard databases are in the backup: " + shardDatabases);
    }

    private static Map<String, Long> counts(String output) {
        Map<String, Long> counts = new TreeMap<>();
        for (String line : output.strip().split("\n")) {
            String[] parts = line.split("\t");
            counts.put(parts[0], Long.parseLong(parts[1]));
        }
        return counts;
    }

    private String liveRow(String id) {
        MysqlHost host = hostOf(id);
        return sql(HostPort.parse(host.master()).port(), rowQuery(id));
    }

    private String restoredRow(String id) {
        return sql(restoredPort(hostOf(id).name()), rowQuery(id));
    }

    private MysqlHost hostOf(String id) {
        int shard = shardOf(id);
        return topology.get().mysql().hosts().stream().filter(h -> h.serves(shard)).findFirst().orElseThrow();
    }

    private static String rowQuery(String id) {
        PinionId parsed = PinionId.parse(id);
        String table = switch (parsed.type()) {
            case USER -> "users";
            case BOARD -> "boards";
            case PIN -> "pins";
            default -> throw new IllegalArgumentException(id);
        };
        return "SELECT local_id, data, ts FROM " + ShardDatabase.table(parsed.shard(), table) + " WHERE local_id = "
                + parsed.local();
    }

    private static int restoredPort(String server) {
        return BASE_PORTS.get(server) + OFFSET;
    }

    private static String sql(int port, String query) {
        String out = run(List.of("mariadb", "--no-defaults", "-h127.0.0.1", "-P" + port, "-upinion", "-ppinion", "-N",
                "-B", "-e", query), Map.of(), Duration.ofMinutes(1));
        assertFalse(out.isBlank(), "no result for " + query + " on port " + port);
        return out;
    }

    // -------------------------------------------------------------------------------------------------------------
    // Redis
    // -------------------------------------------------------------------------------------------------------------

    private void redisAsRecorded(JsonNode manifest) {
        for (Iterator<Map.Entry<String, JsonNode>> it = manifest.get("redis").fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> instance = it.next();
            long keys = instance.getValue().get("rdb").get("keys").asLong();
            assertTrue(keys > 0, instance.getKey() + " had keys");
            assertEquals(Long.toString(keys), redis(restoredPort(instance.getKey()), "DBSIZE"),
                    "keys on the restored " + instance.getKey());
            assertEquals(Long.toString(keys), redis(restoredPort(instance.getKey() + "-replica"), "DBSIZE"),
                    "keys on the restored " + instance.getKey() + "-replica");
        }
        assertEquals(FAILED_OVER + "-replica", manifest.get("redis").get(FAILED_OVER).get("from").asText(),
                "the backup of " + FAILED_OVER + " came from its master at the time");
    }

    /**
     * Has Sentinel make the server on {@code port} the master of {@link #FAILED_OVER} (a graceful failover, both
     * servers up), and waits until both servers have their new roles and the new replica is in sync.
     */
    private static void sentinelFailover(int port) throws InterruptedException {
        int other = port == BASE_PORTS.get(FAILED_OVER)
                ? BASE_PORTS.get(FAILED_OVER + "-replica")
                : BASE_PORTS.get(FAILED_OVER);
        long[] askedAt = {0};
        Wait.within(60_000, () -> {
            if (masterPort().equals(Integer.toString(port))) {
                return true;
            }
            // refused while it settles a previous one: asked again a second later
            if (System.currentTimeMillis() - askedAt[0] >= 1_000) {
                redis(SENTINEL, "SENTINEL", "FAILOVER", FAILED_OVER);
                askedAt[0] = System.currentTimeMillis();
            }
            return false;
        }, "Sentinel makes :" + port + " the master of " + FAILED_OVER);
        within(() -> redis(port, "INFO", "replication").contains("role:master")
                && redis(other, "INFO", "replication").contains("master_link_status:up")
                && redis(other, "INFO", "replication").contains("master_port:" + port));
    }

    private static String masterPort() {
        String[] lines = redis(SENTINEL, "SENTINEL", "GET-MASTER-ADDR-BY-NAME", FAILED_OVER).split("\n");
        return lines.length < 2 ? "" : lines[1].trim();
    }

    /** The command on whichever live instance holds the key (the other answers empty). */
    private static String liveRedis(String... command) {
        return redis(BASE_PORTS.get("redis-1"), command) + redis(BASE_PORTS.get("redis-2"), command);
    }

    private static String restoredRedis(String... command) {
        return redis(restoredPort("redis-1"), command) + redis(restoredPort("redis-2"), command);
    }

    private static String redis(int port, String... command) {
        List<String> args = new ArrayList<>(List.of("redis-cli", "-h", "127.0.0.1", "-p", Integer.toString(port)));
        args.addAll(List.of(command));
        String out = run(args, Map.of(), Duration.ofMinutes(1)).strip();
        // ZCARD of a missing key answers 0 on the instance that does not hold it
        return command[0].equals("ZCARD") && out.equals("0") ? "" : out;
    }

    // -------------------------------------------------------------------------------------------------------------
    // HBase
    // -------------------------------------------------------------------------------------------------------------

    private void hbaseAsRecorded(JsonNode manifest, List<TestUser> users, TestUser reader) throws IOException {
        JsonNode export = manifest.get("hbase").get("export");
        Set<String> standbyTables = new TreeSet<>();
        export.get("standbyTables").forEach(t -> standbyTables.add(t.asText()));
        try (Connection live = hbase(21811, "/hbase-primary");
                Connection primary = hbase(21811 + OFFSET, "/hbase-primary");
                Connection standby = hbase(21812 + OFFSET, "/hbase-standby")) {
            Set<String> tables = new TreeSet<>();
            for (JsonNode table : export.get("tables")) {
                TableName name = TableName.valueOf(table.get("table").asText());
                tables.add(name.getNameAsString());
                long rows = table.get("rows").asLong();
                assertEquals(rows, rows(primary, name), "rows of " + name + " on the restored primary");
                if (standbyTables.contains(name.getNameAsString())) {
                    assertEquals(rows, rows(standby, name), "rows of " + name + " on the restored standby");
                }
            }
            assertTrue(tables.containsAll(List.of(FeedTables.POOLS.getNameAsString(),
                    FeedTables.MATERIALIZED.getNameAsString())), "the feed tables are in the backup: " + tables);
            assertTrue(standbyTables.contains(FeedTables.MATERIALIZED.getNameAsString()), standbyTables.toString());

            for (TestUser user : users) {
                long id = Long.parseLong(user.id());
                List<byte[]> prefixes = Stream.of(FeedSource.values())
                        .map(source -> PoolKey.prefix(id, source))
                        .toList();
                assertEquals(cells(live, FeedTables.POOLS, prefixes), cells(primary, FeedTables.POOLS, prefixes),
                        "pool of " + id);
                List<byte[]> feed = List.of(MaterializedKey.prefix(id));
                List<String> shown = cells(live, FeedTables.MATERIALIZED, feed);
                assertEquals(shown, cells(primary, FeedTables.MATERIALIZED, feed), "materialized feed of " + id);
                assertEquals(shown, cells(standby, FeedTables.MATERIALIZED, feed), "standby's feed of " + id);
                if (user == reader) {
                    assertFalse(shown.isEmpty(), "the reader's feed was materialized");
                } else if (users.indexOf(user) < 3) {
                    assertFalse(cells(primary, FeedTables.POOLS, prefixes).isEmpty(), "a follower's pool has the pins");
                }
            }

            try (Admin admin = primary.getAdmin()) {
                List<String> peers = admin.listReplicationPeers().stream()
                        .map(ReplicationPeerDescription::getPeerConfig).map(c -> c.getClusterKey()).toList();
                for (JsonNode peer : export.get("replicationPeers")) {
                    if (peer.get("clusterKey").asText().equals(export.get("standbyClusterKey").asText())) {
                        assertTrue(peers.contains("127.0.0.1:" + (21812 + OFFSET) + ":/hbase-standby"),
                                "the restored primary replicates to the restored standby: " + peers);
                    }
                }
            }
        }
    }

    private static Connection hbase(int zkPort, String parent) throws IOException {
        Configuration conf = HBaseConfiguration.create();
        conf.set("hbase.zookeeper.quorum", "127.0.0.1");
        conf.setInt("hbase.zookeeper.property.clientPort", zkPort);
        conf.set("zookeeper.znode.parent", parent);
        conf.setInt("hbase.client.retries.number", 10);
        return ConnectionFactory.createConnection(conf);
    }

    private static long rows(Connection connection, TableName name) throws IOException {
        long rows = 0;
        try (Table table = connection.getTable(name);
                ResultScanner scanner = table.getScanner(new Scan().setFilter(new FirstKeyOnlyFilter()))) {
            for (Result ignored : scanner) {
                rows++;
            }
        }
        return rows;
    }

    /** Every cell under the prefixes, as text: row, family:qualifier, value. */
    private static List<String> cells(Connection connection, TableName name, List<byte[]> prefixes) throws IOException {
        List<String> cells = new ArrayList<>();
        try (Table table = connection.getTable(name)) {
            for (byte[] prefix : prefixes) {
                try (ResultScanner scanner = table.getScanner(new Scan().setStartStopRowForPrefixScan(prefix))) {
                    for (Result result : scanner) {
                        for (Cell cell : result.rawCells()) {
                            cells.add(Bytes.toStringBinary(CellUtil.cloneRow(cell)) + " "
                                    + Bytes.toStringBinary(CellUtil.cloneFamily(cell)) + ":"
                                    + Bytes.toStringBinary(CellUtil.cloneQualifier(cell)) + " "
                                    + Bytes.toStringBinary(CellUtil.cloneValue(cell)));
                        }
                    }
                }
            }
        }
        return cells;
    }

    // -------------------------------------------------------------------------------------------------------------
    // The feed, waits, processes
    // -------------------------------------------------------------------------------------------------------------

    private List<Long> pooled(TestUser user) {
        return pools.top(Long.parseLong(user.id()), FeedSource.FOLLOWING, 100).await().atMost(WAIT).stream()
                .map(e -> e.key().pin()).toList();
    }

    private List<Long> shown(TestUser user) {
        return materialized.all(Long.parseLong(user.id())).await().atMost(WAIT).stream().map(s -> s.entry().pin())
                .toList();
    }

    private static boolean idle(TestUser admin) {
        return FEED_QUEUES.stream().allMatch(queue -> {
            JsonNode counts = io.pinion.Json.of(admin.as().get("/v1/queues/" + queue + "/stats").then().statusCode(200)
                    .extract().response()).path("counts");
            return counts.path("PENDING").asLong() + counts.path("RUNNING").asLong() == 0;
        });
    }

    private static void within(BooleanSupplier condition) throws InterruptedException {
        Wait.within(JOBS_MS, condition);
    }

    /** Runs a command in the repository; fails with its output unless it exits 0. */
    private static String run(List<String> command, Map<String, String> env, Duration timeout) {
        try {
            Path output = Files.createTempFile("pinion-backup-test", ".log");
            try {
                List<String> resolved = new ArrayList<>(command);
                if (command.get(0).startsWith("bin/")) { // the project's scripts, by absolute path
                    resolved.set(0, LocalStack.repoRoot().resolve(command.get(0)).toString());
                    resolved.add(0, "bash");
                }
                ProcessBuilder builder = new ProcessBuilder(resolved).directory(LocalStack.repoRoot().toFile())
                        .redirectErrorStream(true).redirectOutput(output.toFile());
                builder.environment().putAll(env);
                Process process = builder.start();
                if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                    process.destroyForcibly();
                    throw new IllegalStateException(command + " did not finish in " + timeout);
                }
                String text = Files.readString(output, StandardCharsets.UTF_8);
                if (command.get(0).startsWith("bin/")) {
                    System.out.println("$ " + String.join(" ", command) + "\n" + text);
                }
                if (process.exitValue() != 0) {
                    throw new IllegalStateException(command + " exited " + process.exitValue() + ":\n" + text);
                }
                return text;
            } finally {
                Files.deleteIfExists(output);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + command, e);
        }
    }

    /**
     * bin/restore into a fresh stack at a port offset free now; when one of its ports was taken by the time a server
     * started (an outgoing connection's ephemeral port), the half-started stack goes and the restore runs once more at
     * the next free offset. The environment of the restored stack.
     */
    private static Map<String, String> restore(Path backup, Path restored) throws IOException {
        for (int attempt = 1;; attempt++) {
            OFFSET = freeOffset(attempt == 1 ? 1000 : OFFSET + 100);
            Map<String, String> env = Map.of("PINION_STACK_DIR", restored.toString(),
                    "PINION_STACK_PORT_OFFSET", Integer.toString(OFFSET));
            try {
                run(List.of("bin/restore", backup.toString()), env, Duration.ofMinutes(8));
                return env;
            } catch (IllegalStateException failed) {
                if (attempt == 2 || !String.valueOf(failed.getMessage()).contains("Address already in use")) {
                    throw failed;
                }
                System.out.printf("a port of the restored stack at offset %d was taken; once more%n", OFFSET);
                run(List.of("bin/stack", "down"), env, Duration.ofMinutes(2));
                delete(restored);
            }
        }
    }

    /** The dumps hold user data: no file or folder of a backup may be read by other users of the machine. */
    private static void notReadableByOthers(Path backup) throws IOException {
        try (var paths = Files.walk(backup)) {
            for (Path path : paths.toList()) {
                var permissions = Files.getPosixFilePermissions(path);
                assertFalse(
                        permissions.contains(java.nio.file.attribute.PosixFilePermission.OTHERS_READ)
                                || permissions.contains(java.nio.file.attribute.PosixFilePermission.GROUP_READ),
                        path + " is readable by others: "
                                + java.nio.file.attribute.PosixFilePermissions.toString(permissions));
            }
        }
    }

    private static void delete(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
