package io.pinion.security;

import static io.pinion.TestApi.admin;
import static io.pinion.TestApi.login;
import static io.pinion.TestApi.newUser;
import static io.pinion.TestApi.signUpAndLogin;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.Map;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.pinion.TestApi.TestUser;
import io.pinion.Wait;
import io.pinion.id.PinionId;
import io.pinion.mysql.ShardDatabase;
import io.pinion.mysql.ShardSql;
import io.pinion.stack.StackTest;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.jwt.build.Jwt;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * Roles are stored with the user and granted by an admin, never taken from a name; a token issued after a grant
 * carries the role, and a revoked role stops working for tokens issued before. Workers reach only the queues granted
 * to them; the service's own queues take and give no jobs over HTTP; lease tokens are unguessable and required.
 */
@QuarkusTest
@StackTest
class RolesAndGrantsTest {

    @Inject
    ShardSql sql;

    @Test
    void aSignUpWithAnyNameGetsNoRole() {
        TestUser named = signUpAndLogin(
                "admin_" + UUID.randomUUID().toString().replace("-", "").substring(0, 20), "password-x1");
        named.as().get("/v1/admin/topology").then().statusCode(403).body("error", equalTo("forbidden"));
        named.as().get("/v1/queues").then().statusCode(403);
        named.as().put("/v1/admin/users/" + named.id() + "/roles/admin").then().statusCode(403);
    }

    @Test
    void anAdminGrantsARoleThatANewTokenCarriesAndRevokesItForOldTokensToo() {
        TestUser admin = admin();
        String name = "w_" + UUID.randomUUID().toString().replace("-", "").substring(0, 20);
        TestUser user = signUpAndLogin(name, "password-" + name);
        admin.as().put("/v1/admin/users/" + user.id() + "/roles/worker").then().statusCode(200)
                .body("roles", hasItem("worker"));
        user.as().get("/v1/queues").then().statusCode(403); // the old token carries no role
        TestUser worker = login(name, "password-" + name);
        worker.as().get("/v1/queues").then().statusCode(200);
        admin.as()
                .get("/v1/admin/users/" + user.id() + "/grants")
                .then()
                .statusCode(200)
                .body("roles", equalTo(List.of("worker")));

        admin.as().delete("/v1/admin/users/" + user.id() + "/roles/worker").then().statusCode(200)
                .body("roles", not(hasItem("worker")));
        worker.as().get("/v1/queues").then().statusCode(403);
        admin.as().put("/v1/admin/users/" + user.id() + "/roles/superuser").then().statusCode(400)
                .body("error", equalTo("invalid_role"));
    }

    /**
     * A revoke made elsewhere (another instance, or a {@code bin/admin revoke} whose cache invalidation never went
     * out) is in force within {@code pinion.auth.grants-reuse} (2 s in tests), although the user's row is in the
     * object cache, whose entries live for minutes.
     */
    @Test
    void aRevokeWhoseInvalidationNeverArrivesIsInForceWithinTheGrantsReuseTime() throws InterruptedException {
        TestUser admin = admin();
        String name = "w_" + UUID.randomUUID().toString().replace("-", "").substring(0, 20);
        TestUser user = signUpAndLogin(name, "password-" + name);
        admin.as().put("/v1/admin/users/" + user.id() + "/roles/worker").then().statusCode(200);
        TestUser worker = login(name, "password-" + name);
        worker.as().get("/v1/queues").then().statusCode(200);
        given().get("/v1/users/" + user.id()).then().statusCode(200); // the row is in the object cache now

        PinionId id = PinionId.parse(user.id());
        sql.query(
                        id.shard(),
                        "UPDATE " + ShardDatabase.table(id.shard(), "users")
                                + " SET data = JSON_SET(data, '$.roles', JSON_ARRAY()) WHERE local_id = ?",
                        Tuple.of(id.local()))
                .await()
                .atMost(Duration.ofSeconds(5));

        int[] status = {200};
        Wait.within(6_000, () -> {
            status[0] = worker.as().get("/v1/queues").then().extract().statusCode();
            return status[0] != 200;
        }, "the revoked role refused");
        org.junit.jupiter.api.Assertions.assertEquals(403, status[0], "the revoked role still works after 6 s");
    }

    /** A token that claims a privileged role but whose subject is no user id keeps only {@code user}. */
    @Test
    void aPrivilegedTokenWhoseSubjectIsNoUserKeepsNoPrivilege() {
        String token = Jwt.issuer("pinion")
                .subject("not-a-user")
                .upn("nobody")
                .groups(Set.of("user", "admin", "worker"))
                .expiresIn(Duration.ofMinutes(5))
                .sign();
        given().header("Authorization", "Bearer " + token).get("/v1/admin/topology").then().statusCode(403);
        given().header("Authorization", "Bearer " + token).get("/v1/queues").then().statusCode(403);
    }

    @Test
    void aWorkerUsesOnlyTheQueuesGrantedAndNobodyTouchesTheServicesOwnQueues() {
        TestUser admin = admin();
        String name = "w_" + UUID.randomUUID().toString().replace("-", "").substring(0, 20);
        TestUser user = signUpAndLogin(name, "password-" + name);
        admin.as().put("/v1/admin/users/" + user.id() + "/roles/worker").then().statusCode(200);
        TestUser worker = login(name, "password-" + name);
        String granted = "granted-" + UUID.randomUUID().toString().substring(0, 8);
        String other = "other-" + UUID.randomUUID().toString().substring(0, 8);
        admin.as().body(Map.of("name", granted)).post("/v1/queues").then().statusCode(201);
        admin.as().body(Map.of("name", other)).post("/v1/queues").then().statusCode(201);
        admin.as().put("/v1/admin/users/" + worker.id() + "/queues/" + granted).then().statusCode(200);

        worker.as().body(Map.of("body", "hello")).post("/v1/queues/" + granted + "/jobs").then().statusCode(201);
        worker.as().body(Map.of("body", "hello")).post("/v1/queues/" + other + "/jobs").then().statusCode(403)
                .body("error", equalTo("forbidden"));
        worker.as().body(Map.of("max", 1)).post("/v1/queues/" + other + "/dequeue").then().statusCode(403);
        worker.as().get("/v1/queues/" + other + "/stats").then().statusCode(403);
        worker.as().get("/v1/queues").then().statusCode(200).body("items.name", equalTo(List.of(granted)));

        for (TestUser caller : List.of(worker, admin)) {
            caller.as()
                    .body(Map.of("body", "{\"user\":1,\"chunkId\":1,\"entries\":[]}"))
                    .post("/v1/queues/feed-persist/jobs")
                    .then()
                    .statusCode(403);
            caller.as().body(Map.of("max", 1)).post("/v1/queues/feed-persist/dequeue").then().statusCode(403);
        }
        admin.as()
                .body(Map.of("body", "x"))
                .post("/v1/queues/feed-persist/jobs")
                .then()
                .body("error", equalTo("internal_queue"));
        admin.as().get("/v1/queues/feed-persist/stats").then().statusCode(200);
        worker.as().get("/v1/queues/feed-persist/stats").then().statusCode(403);

        admin.as().delete("/v1/admin/users/" + worker.id() + "/queues/" + granted).then().statusCode(200);
        worker.as().body(Map.of("body", "hello")).post("/v1/queues/" + granted + "/jobs").then().statusCode(403);
    }

    @Test
    void anAckNeedsTheLeaseTokenHandedOutWithTheJob() {
        TestUser admin = admin();
        String queue = "leases-" + UUID.randomUUID().toString().substring(0, 8);
        admin.as().body(Map.of("name", queue)).post("/v1/queues").then().statusCode(201);
        String id = admin.as().body(Map.of("body", "work")).post("/v1/queues/" + queue + "/jobs").then().statusCode(201)
                .extract().path("id");
        String token = null;
        for (int i = 0; i < 50 && token == null; i++) {
            List<Map<String, Object>> leased = admin.as()
                    .body(Map.of("max", 1, "waitMs", 200))
                    .post("/v1/queues/" + queue + "/dequeue")
                    .then()
                    .statusCode(200)
                    .extract()
                    .jsonPath()
                    .getList("items");
            token = leased.isEmpty() ? null : (String) leased.get(0).get("leaseToken");
        }
        org.junit.jupiter.api.Assertions.assertNotNull(token, "leased");
        org.junit.jupiter.api.Assertions.assertTrue(token.length() > 20, "an unguessable token: " + token);

        ack(admin, id, null).then().statusCode(400).body("error", equalTo("invalid_lease_token"));
        ack(admin, id, "1").then().statusCode(400).body("error", equalTo("invalid_lease_token"));
        ack(admin, id, token.substring(0, token.length() - 2) + (token.endsWith("A") ? "BB" : "AA"))
                .then()
                .statusCode(400);
        admin.as().body(Map.of("extendMs", 5000)).post("/v1/jobs/" + id + "/checkpoint").then().statusCode(400)
                .body("error", equalTo("invalid_lease_token"));
        ack(admin, id, token).then().statusCode(200).body("items[0].result", equalTo("acked"));
        newUser().as().get("/v1/jobs/" + id).then().statusCode(403);
    }

    private static io.restassured.response.Response ack(TestUser user, String id, String token) {
        Map<String, Object> item = new java.util.HashMap<>(Map.of("id", id, "outcome", "success"));
        if (token != null) {
            item.put("leaseToken", token);
        }
        return user.as().body(Map.of("acks", List.of(item))).post("/v1/jobs/ack");
    }
}
