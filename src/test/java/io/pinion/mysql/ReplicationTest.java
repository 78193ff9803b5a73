package io.pinion.mysql;

import static io.pinion.TestApi.admin;
import static io.pinion.TestApi.newUser;
import static io.pinion.TestApi.shardOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.pinion.TestApi.TestUser;
import io.pinion.Wait;
import io.pinion.id.PinionId;
import io.pinion.stack.StackTest;
import io.pinion.topology.ActiveTopology;
import io.pinion.topology.MysqlHost;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * Every MySQL host of the local stack has a replica that follows it by GTID: a user written through the service on
 * each host is on its replica within a second, the replica refuses the service account's writes (read-only), and
 * the backends view reports each replica replicating.
 */
@QuarkusTest
@StackTest
class ReplicationTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @Inject
    MysqlPools pools;
    @Inject
    ActiveTopology topology;

    @Test
    void eachHostsReplicaHasItsWritesAndRefusesTheServicesOwn() throws Exception {
        Map<String, TestUser> onHost = new HashMap<>();
        while (onHost.size() < topology.get().mysql().hosts().size()) {
            TestUser user = newUser();
            String host = topology.get().mysql().hostOf(shardOf(user.id())).map(MysqlHost::name).orElseThrow();
            onHost.putIfAbsent(host, user);
        }
        for (Map.Entry<String, TestUser> entry : onHost.entrySet()) {
            Pool replica = pools.replicaOf(entry.getKey()).orElseThrow();
            long id = PinionId.parse(entry.getValue().id()).local();
            String table = ShardDatabase.table(shardOf(entry.getValue().id()), "users");
            String query = "SELECT COUNT(*) FROM " + table + " WHERE local_id = ?";
            long start = System.nanoTime();
            Wait.within(1_000, Duration.ofMillis(10), () -> count(replica, query, id) > 0,
                    () -> entry.getKey() + ": the user on its replica");
            System.out.printf("%s: user on the replica %d ms after the sign-up answered%n", entry.getKey(),
                    (System.nanoTime() - start) / 1_000_000);

            Throwable refused = replica.preparedQuery("UPDATE " + table + " SET ts = ts WHERE local_id = ?")
                    .execute(Tuple.of(id)).onItem().<Throwable>transform(rows -> null)
                    .onFailure().recoverWithItem(failure -> failure)
                    .await().atMost(WAIT);
            assertTrue(refused != null && refused.getMessage().contains("read-only"), entry.getKey() + ": " + refused);
        }

        JsonPath backends = admin().as().get("/v1/admin/backends").then().statusCode(200).extract().jsonPath();
        for (String host : List.of("mysql-1", "mysql-2")) {
            String name = host + "-replica";
            assertEquals(true, backends.getBoolean("items.find { it.name == '" + name + "' }.up"), backends.prettify());
            assertEquals("mysql-replica", backends.getString("items.find { it.name == '" + name + "' }.kind"));
            assertTrue(backends.getString("items.find { it.name == '" + name + "' }.detail").startsWith("replicating"));
        }
    }

    private static long count(Pool pool, String sql, long id) {
        return pool.preparedQuery(sql).execute(Tuple.of(id)).await().atMost(WAIT).iterator().next().getLong(0);
    }
}
