package io.pinion.mysql;

import static io.pinion.TestApi.createBoard;
import static io.pinion.TestApi.createPin;
import static io.pinion.TestApi.newUser;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;


import io.pinion.TestApi.TestUser;
import io.pinion.TestApi;
import io.pinion.stack.StackTest;
import io.pinion.topology.ActiveTopology;
import io.pinion.topology.HostPort;
import io.pinion.topology.MysqlHost;
import io.pinion.topology.MysqlTopology;
import io.pinion.topology.ShardRange;
import io.pinion.topology.Topology;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Capacity moves whole shards: copy the shard database to the other host, switch the topology (a compare-and-set in
 * ZooKeeper). The shard keeps serving from its new host (its old copy is dropped to prove it), takes new writes there,
 * and moves back.
 */
@QuarkusTest
@StackTest
class ShardMoveTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @Inject
    ActiveTopology topology;
    @Inject
    MysqlPools pools;

    @Test
    void aShardMovedToTheOtherHostKeepsServingAndTakesWrites() throws Exception {
        TestUser owner = newUser();
        TestUser fan = newUser();
        int shard = TestApi.shardOf(owner.id());
        String board = createBoard(owner, "moving");
        List<String> pins = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            pins.add(createPin(owner, board, "before the move " + i));
        }
        fan.as().put("/v1/pins/" + pins.get(0) + "/like").then().statusCode(200);
        List<String> boardPinsBefore = readBoard(board);

        MysqlHost from = topology.get().mysql().hostOf(shard).orElseThrow();
        MysqlHost to = topology.get().mysql().hosts().stream().filter(h -> !h.equals(from)).findFirst().orElseThrow();

        move(shard, from, to);

        assertEquals(1L, countOn(to.name(), shard), "the shard database is on " + to.name());
        assertEquals(0L, countOn(from.name(), shard), "and no longer on " + from.name());
        assertEquals(boardPinsBefore, readBoard(board));
        given().get("/v1/pins/" + pins.get(0)).then().statusCode(200).body("counts.likes", equalTo(1));
        given().get("/v1/users/" + owner.id()).then().statusCode(200).body("counts.pins", equalTo(3));
        String after = createPin(owner, board, "after the move");
        given().get("/v1/boards/" + board).then().body("counts.pins", equalTo(4));
        assertEquals(after, readBoard(board).get(0));

        move(shard, to, from);

        assertEquals(1L, countOn(from.name(), shard));
        assertEquals(4, readBoard(board).size());
        given().get("/v1/pins/" + after).then().statusCode(200);
    }

    @Test
    void onlyTheOpenRangeReceivesNewUsers() throws Exception {
        Topology original = topology.get();
        MysqlTopology narrowed = new MysqlTopology(original.mysql().shardCount(), new ShardRange(40, 41),
                original.mysql().hosts());
        io.pinion.TestApi.putTopology(new Topology(narrowed, original.redis(), original.hbase()))
                .then()
                .statusCode(200);
        try {
            for (int i = 0; i < 6; i++) {
                TestUser user = newUser();
                int shard = TestApi.shardOf(user.id());
                org.junit.jupiter.api.Assertions.assertTrue(shard == 40 || shard == 41, "user on shard " + shard);
                String board = createBoard(user, "follows its owner");
                assertEquals(shard, TestApi.shardOf(board));
            }
        } finally {
            io.pinion.TestApi.putTopology(original).then().statusCode(200);
        }
    }

    @Test
    void aTopologyThatChangesTheShardCountIsRefused() throws Exception {
        Topology original = topology.get();
        MysqlTopology bigger = new MysqlTopology(128, original.mysql().openShards(), List.of(
                new MysqlHost("mysql-1", "127.0.0.1:33061", null, List.of(new ShardRange(0, 127)))));
        io.pinion.TestApi.putTopology(new Topology(bigger, original.redis(), original.hbase())).then().statusCode(400)
                .body("error", equalTo("invalid_topology"))
                .body("message", org.hamcrest.Matchers.containsString("shardCount cannot change"));
        assertEquals(64, topology.get().mysql().shardCount());
    }

    private void move(int shard, MysqlHost from, MysqlHost to) throws Exception {
        copyDatabase(shard, from.masterEndpoint(), to.masterEndpoint());
        io.pinion.TestApi.putTopology(withShardOn(topology.get(), shard, to.name())).then().statusCode(200);
        assertEquals(to.name(), topology.get().mysql().hostOf(shard).orElseThrow().name());
        pools.forHost(from.name()).query("DROP DATABASE " + ShardDatabase.name(shard)).execute().await().atMost(WAIT);
    }

    /** The documented procedure's copy step: mariadb-dump of the shard database piped into the target host. */
    private static void copyDatabase(int shard, HostPort from, HostPort to) throws IOException, InterruptedException {
        String command = String.format(
                "set -o pipefail; mariadb-dump --no-defaults -h %s -P %d -u pinion -ppinion --single-transaction"
                        + " --databases %s | mariadb --no-defaults -h %s -P %d -u pinion -ppinion",
                from.host(), from.port(), ShardDatabase.name(shard), to.host(), to.port());
        Process process = new ProcessBuilder("bash", "-c", command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IllegalStateException("copy of shard " + shard + " failed: " + output);
        }
    }

    private static Topology withShardOn(Topology current, int shard, String hostName) {
        List<MysqlHost> hosts = current.mysql().hosts().stream().map(host -> {
            List<ShardRange> ranges = new ArrayList<>();
            for (ShardRange range : host.shards()) {
                if (range.contains(shard)) {
                    if (range.from() < shard) {
                        ranges.add(new ShardRange(range.from(), shard - 1));
                    }
                    if (shard < range.to()) {
                        ranges.add(new ShardRange(shard + 1, range.to()));
                    }
                } else {
                    ranges.add(range);
                }
            }
            if (host.name().equals(hostName)) {
                ranges.add(new ShardRange(shard, shard));
            }
            return new MysqlHost(host.name(), host.master(), host.replica(), ranges);
        }).toList();
        MysqlTopology mysql = new MysqlTopology(current.mysql().shardCount(), current.mysql().openShards(), hosts);
        return new Topology(mysql, current.redis(), current.hbase());
    }

    private long countOn(String host, int shard) {
        return pools.forHost(host)
                .query("SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = '"
                        + ShardDatabase.name(shard) + "'")
                .execute()
                .map(rows -> rows.iterator().next().getLong(0))
                .await()
                .atMost(WAIT);
    }

    private static List<String> readBoard(String board) {
        return given().queryParam("limit", 100).get("/v1/boards/" + board + "/pins")
                .then().statusCode(200).extract().jsonPath().getList("items.id");
    }
}
