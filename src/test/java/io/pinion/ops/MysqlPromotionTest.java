package io.pinion.ops;

import static io.pinion.TestApi.admin;
import static io.pinion.TestApi.newUser;
import static io.pinion.TestApi.shardOf;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import io.pinion.TestApi.TestUser;
import io.pinion.Wait;
import io.pinion.id.PinionId;
import io.pinion.mysql.MysqlPools;
import io.pinion.mysql.ShardDatabase;
import io.pinion.stack.StackTest;
import io.pinion.topology.ActiveTopology;
import io.pinion.topology.MysqlHost;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * A planned promotion of {@code mysql-2}'s replica and back, on the local stack: the replica becomes the master
 * (in the topology too), the service reads what was written before and writes on the new master, the old master is
 * fenced (read-only for the service's account) and, rejoined, replicates from the new one by GTID; then the same
 * once more puts the stack back as it was.
 */
@QuarkusTest
@StackTest
@Tag("fault")
class MysqlPromotionTest {

    private static final String HOST = "mysql-2";
    private static final Duration WAIT = Duration.ofSeconds(30);

    @Inject
    ActiveTopology topology;
    @Inject
    MysqlPools pools;

    @Test
    void theReplicaIsPromotedTheOldMasterFollowsItAndBothGoBack() throws Exception {
        TestUser admin = admin();
        MysqlHost before = host();
        TestUser earlier = userOnHost();
        try {
            JsonPath promoted = admin.as().post("/v1/admin/mysql/hosts/" + HOST + "/promote")
                    .then().statusCode(200).extract().jsonPath();
            assertEquals(before.replica(), promoted.getString("master"));
            assertEquals(before.master(), promoted.getString("replica"));
            assertTrue(promoted.getBoolean("oldMasterFenced"));
            assertTrue(promoted.getBoolean("applied"));
            System.out.printf("promotion took %d ms%n", promoted.getLong("tookMs"));
            assertEquals(before.replica(), host().master(), "the topology in force names the new master");

            given().get("/v1/users/" + earlier.id()).then().statusCode(200);
            TestUser later = userOnHost();
            String refused = write(pools.replicaOf(HOST).orElseThrow(), later);
            assertTrue(refused.contains("read-only"), "the fenced old master refuses the service's writes: " + refused);

            admin.as().post("/v1/admin/mysql/hosts/" + HOST + "/rejoin").then().statusCode(200)
                    .body("replica", org.hamcrest.Matchers.equalTo(before.master()))
                    .body("running", org.hamcrest.Matchers.equalTo(true));
            within(() -> present(pools.replicaOf(HOST).orElseThrow(), later));
        } finally {
            back(admin, before);
        }
        assertEquals(before, host(), "master and replica as before");
        JsonPath backends = admin.as().get("/v1/admin/backends").then().statusCode(200).extract().jsonPath();
        assertTrue(
                backends.getString("items.find { it.name == '" + HOST + "-replica' }.detail")
                        .startsWith("replicating"),
                backends.prettify());
        TestUser last = userOnHost();
        within(() -> present(pools.replicaOf(HOST).orElseThrow(), last));
    }

    /**
     * The same steps once more, from wherever the test stopped: the old master is master again, the replica replica.
     */
    private void back(TestUser admin, MysqlHost before) throws Exception {
        if (host().master().equals(before.master())) {
            return;
        }
        admin.as().post("/v1/admin/mysql/hosts/" + HOST + "/rejoin").then().statusCode(200);
        within(() -> admin.as().get("/v1/admin/backends").then().extract().jsonPath()
                .getString("items.find { it.name == '" + HOST + "-replica' }.detail").startsWith("replicating"));
        admin.as().post("/v1/admin/mysql/hosts/" + HOST + "/promote").then().statusCode(200);
        admin.as().post("/v1/admin/mysql/hosts/" + HOST + "/rejoin").then().statusCode(200)
                .body("running", org.hamcrest.Matchers.equalTo(true));
    }

    private MysqlHost host() {
        return topology.get().mysql().hosts().stream().filter(h -> h.name().equals(HOST)).findFirst().orElseThrow();
    }

    private TestUser userOnHost() {
        while (true) {
            TestUser user = newUser();
            if (host().serves(shardOf(user.id()))) {
                return user;
            }
        }
    }

    private static String write(Pool pool, TestUser user) {
        return pool.preparedQuery("UPDATE " + table(user) + " SET ts = ts WHERE local_id = ?")
                .execute(Tuple.of(PinionId.parse(user.id()).local()))
                .map(rows -> "written").onFailure().recoverWithItem(Throwable::getMessage)
                .await().atMost(WAIT);
    }

    private static boolean present(Pool pool, TestUser user) {
        return pool.preparedQuery("SELECT COUNT(*) FROM " + table(user) + " WHERE local_id = ?")
                .execute(Tuple.of(PinionId.parse(user.id()).local()))
                .map(rows -> rows.iterator().next().getLong(0) == 1).onFailure().recoverWithItem(false)
                .await().atMost(WAIT);
    }

    private static String table(TestUser user) {
        return ShardDatabase.table(shardOf(user.id()), "users");
    }

    private static void within(java.util.function.BooleanSupplier condition) throws InterruptedException {
        Wait.within(WAIT, condition);
    }

    @Test
    void anOperatorsPromotionOfAMasterThatDoesNotAnswerNeedsForce() throws InterruptedException {
        TestUser admin = admin();
        MysqlHost before = topology.get().mysql().hosts().stream()
                .filter(h -> h.name().equals(HOST))
                .findFirst()
                .orElseThrow();
        io.pinion.stack.LocalStack.run("stop", HOST);
        try {
            admin.as().post("/v1/admin/mysql/hosts/" + HOST + "/promote").then().statusCode(409)
                    .body("error", org.hamcrest.Matchers.equalTo("old_master_not_fenced"));
            assertEquals(before, topology.get().mysql().hosts().stream().filter(h -> h.name().equals(HOST)).findFirst()
                    .orElseThrow(), "nothing changed");
        } finally {
            io.pinion.stack.LocalStack.run("start", HOST);
            // the host's breaker (opened by the background work that failed meanwhile) lets requests through again
            // before the next test writes there
            within(() -> {
                try {
                    userOnHost();
                    return true;
                } catch (AssertionError | RuntimeException notYet) {
                    return false;
                }
            });
        }
    }
}
