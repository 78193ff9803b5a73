package io.pinion.graph;

import static io.pinion.TestApi.admin;
import static io.pinion.TestApi.createBoard;
import static io.pinion.TestApi.newUser;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;


import io.pinion.TestApi.TestUser;
import io.pinion.redis.RedisClients;
import io.pinion.stack.StackTest;
import io.pinion.topology.ActiveTopology;
import io.pinion.topology.RedisInstance;
import io.pinion.topology.RedisTopology;
import io.pinion.topology.ShardRange;
import io.pinion.topology.Topology;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Request;

/**
 * The documented procedure for moving virtual shards to another Redis instance: freeze the range, copy it, point the
 * topology at the new instance, purge the old copy. The moved user's relationships keep answering from the new
 * instance, take new writes there, and move back the same way.
 */
@QuarkusTest
@StackTest
class VirtualShardMoveTest {

    @Inject
    ActiveTopology topology;
    @Inject
    VirtualShards shards;
    @Inject
    RedisClients redis;

    @Test
    void aMovedRangeKeepsServingFromTheOtherInstanceAndMovesBack() throws Exception {
        TestUser owner = userOn("redis-1");
        TestUser fan = userOn("redis-1");
        TestUser remoteFan = userOn("redis-2");
        String board = createBoard(owner, "moves with its owner");
        String other = createBoard(owner, "unfollowed by the fan");
        Graph.followUser(fan, owner.id());
        Graph.unfollowBoard(fan, other);
        Graph.followBoard(remoteFan, board);
        int vs = shards.ofUser(Long.parseLong(owner.id()));
        Topology original = topology.get();

        try {
            moveAndBack(vs, owner, fan, remoteFan, board, other);
        } finally {
            apply(original);
        }
    }

    private void moveAndBack(int vs, TestUser owner, TestUser fan, TestUser remoteFan, String board, String other)
            throws Exception {
        move(vs, "redis-1", "redis-2", owner, fan);

        assertEquals("redis-2", topology.get().redis().instanceOf(vs).orElseThrow().name());
        assertEquals(0, keysOn("redis-1", vs), "the old copy is purged");
        assertTrue(keysOn("redis-2", vs) > 0);
        assertServing(owner, fan, remoteFan, board, other, 2);
        TestUser late = userOn("redis-1");
        Graph.followUser(late, owner.id());
        assertServing(owner, fan, remoteFan, board, other, 3);

        move(vs, "redis-2", "redis-1", owner, fan);

        assertEquals("redis-1", topology.get().redis().instanceOf(vs).orElseThrow().name());
        assertTrue(topology.get().redis().frozen().isEmpty());
        assertEquals(0, keysOn("redis-2", vs));
        assertServing(owner, fan, remoteFan, board, other, 3);
    }

    @Test
    void copyingAnUnfrozenRangeOrPurgingAServedOneIsRefused() {
        TestUser admin = admin();
        admin.as().body(Map.of("from", 10, "to", 20, "instance", "redis-2")).post("/v1/admin/graph/virtual-shards/copy")
                .then().statusCode(409).body("error", equalTo("range_not_frozen"));
        admin.as()
                .body(Map.of("from", 10, "to", 20, "instance", "redis-1"))
                .post("/v1/admin/graph/virtual-shards/purge")
                .then()
                .statusCode(409)
                .body("error", equalTo("still_served"));
        admin.as()
                .body(Map.of("from", 20, "to", 10, "instance", "redis-1"))
                .post("/v1/admin/graph/virtual-shards/purge")
                .then()
                .statusCode(400)
                .body("error", equalTo("invalid_range"));
        admin.as()
                .body(Map.of("from", 10, "to", 20, "instance", "redis-9"))
                .post("/v1/admin/graph/virtual-shards/purge")
                .then()
                .statusCode(400)
                .body("error", equalTo("unknown_instance"));
        newUser()
                .as()
                .body(Map.of("from", 10, "to", 20, "instance", "redis-2"))
                .post("/v1/admin/graph/virtual-shards/copy")
                .then()
                .statusCode(403);
    }

    /** The procedure of docs/graph.md, steps 1-5. */
    private void move(int vs, String from, String to, TestUser mover, TestUser target) throws Exception {
        TestUser admin = admin();
        ShardRange range = new ShardRange(vs, vs);
        Topology before = topology.get();
        // 1. freeze the range everywhere: writes to it get a 503 until the move is done (the mover's follows live
        // there)
        apply(new Topology(
                before.mysql(),
                new RedisTopology(before.redis().virtualShards(), before.redis().instances(), List.of(range)),
                before.hbase()));
        mover.as().put("/v1/me/following/users/" + target.id()).then().statusCode(503)
                .body("error", equalTo("virtual_shard_moving"));
        // 2. (writes in flight finish within the command timeout) 3. copy
        admin.as().body(Map.of("from", vs, "to", vs, "instance", to)).post("/v1/admin/graph/virtual-shards/copy")
                .then().statusCode(200).body("source", equalTo(from)).body("target", equalTo(to));
        // 4. serve the range from the target, unfrozen
        apply(withShardOn(before, vs, to));
        // 5. purge the old copy
        admin.as().body(Map.of("from", vs, "to", vs, "instance", from)).post("/v1/admin/graph/virtual-shards/purge")
                .then().statusCode(200);
    }

    private void assertServing(
            TestUser owner, TestUser fan, TestUser remoteFan, String board, String other, int followers) {
        assertTrue(Graph.followsUser(fan.id(), owner.id()));
        assertTrue(Graph.followsBoard(fan.id(), board));
        assertFalse(Graph.followsBoard(fan.id(), other));
        assertTrue(Graph.followsBoard(remoteFan.id(), board));
        assertEquals(followers - 1, Graph.userCounts(owner.id()).getLong("followers"));
        assertEquals(1, Graph.userCounts(owner.id()).getLong("implicitFollowers"));
        assertEquals(followers, Graph.boardFollowerCount(board));
        assertEquals(Set.copyOf(Graph.all("/v1/boards/" + board + "/followers")).size(), followers);
        assertEquals(followers - 2, Graph.boardFollowerCount(other));
    }

    private Topology withShardOn(Topology current, int vs, String instanceName) {
        List<RedisInstance> instances = new ArrayList<>();
        for (RedisInstance instance : current.redis().instances()) {
            List<ShardRange> ranges = new ArrayList<>();
            for (ShardRange range : instance.virtualShards()) {
                if (!range.contains(vs)) {
                    ranges.add(range);
                    continue;
                }
                if (range.from() < vs) {
                    ranges.add(new ShardRange(range.from(), vs - 1));
                }
                if (vs < range.to()) {
                    ranges.add(new ShardRange(vs + 1, range.to()));
                }
            }
            if (instance.name().equals(instanceName)) {
                ranges.add(new ShardRange(vs, vs));
            }
            instances.add(new RedisInstance(instance.name(), instance.endpoint(), ranges));
        }
        return new Topology(current.mysql(), new RedisTopology(current.redis().virtualShards(), instances, List.of()),
                current.hbase());
    }

    private void apply(Topology next) {
        io.pinion.TestApi.putTopology(next).then().statusCode(200);
    }

    private long keysOn(String instance, int vs) {
        long keys = 0;
        String cursor = "0";
        do {
            var answer = redis.forInstance(instance)
                    .redis()
                    .send(Request.cmd(Command.SCAN)
                            .arg(cursor)
                            .arg("MATCH")
                            .arg(GraphKeys.prefix(vs) + "*")
                            .arg("COUNT")
                            .arg(10_000))
                    .await()
                    .indefinitely();
            cursor = answer.get(0).toString();
            keys += answer.get(1).size();
        } while (!cursor.equals("0"));
        return keys;
    }

    private TestUser userOn(String instance) {
        return Graph.userOn(instance, shards, topology);
    }
}
