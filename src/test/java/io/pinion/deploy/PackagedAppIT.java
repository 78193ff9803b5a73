package io.pinion.deploy;

import static io.pinion.TestApi.createBoard;
import static io.pinion.TestApi.createPin;
import static io.pinion.TestApi.login;
import static io.pinion.TestApi.newUser;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.notNullValue;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.Test;

import io.pinion.TestApi.TestUser;
import io.pinion.Wait;
import io.pinion.stack.LocalStack;
import io.pinion.stack.Operator;
import io.pinion.stack.StackTest;
import io.quarkus.test.junit.QuarkusIntegrationTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;

/**
 * The packaged app (target/quarkus-app, what docker/Dockerfile.jvm ships) started as its own process in the prod
 * profile against the local stack, which the suite's {@code StackResource} brings up: the main paths of the API
 * answer as they do in the {@code @QuarkusTest}s.
 */
@QuarkusIntegrationTest
@StackTest
@TestProfile(PackagedAppIT.PackagedApp.class)
class PackagedAppIT {

    /** A new account per run: the stack's data outlives the run, and an account granted admin once stays admin. */
    private static final String ADMIN = "packaged_admin_" + UUID.randomUUID().toString().substring(0, 8);

    /**
     * What the packaged app needs from outside, as a deployment gives it (the prod profile has no {@code %test}
     * keys, and refuses to start without a cursor secret and a MySQL password): the signing keys as files and the
     * two secrets. The topology is the bundled local one; the first admin is made with {@code bin/admin}.
     */
    public static class PackagedApp implements QuarkusTestProfile {

        @Override
        public Map<String, String> getConfigOverrides() {
            Path jwt = LocalStack.repoRoot().resolve("src/test/resources/jwt");
            // login limits as every packaged instance of the integration tests has them (PackagedService.LOGIN_LIMITS)
            return Map.of(
                    "pinion.rate-limit.logins-per-address-per-minute", "6000",
                    "pinion.rate-limit.logins-per-user-and-address-per-minute", "6000",
                    "pinion.rate-limit.logins-per-user-per-minute", "6000",
                    "mp.jwt.verify.publickey.location", "file:" + jwt.resolve("test-public.pem"),
                    "smallrye.jwt.sign.key.location", "file:" + jwt.resolve("test-private.pem"),
                    "pinion.cursor.secret", "packaged-app-test-secret-0123456789",
                    "pinion.mysql.password", "pinion",
                    // the launched jar's management interface on the test port, as in the tests' own instance
                    "quarkus.management.port", String.valueOf(io.pinion.TestApi.MANAGEMENT_PORT),
                    // the warm-up runs as deployed, but for 2 s of its 20: on the tests' small data set the rest
                    // only delays readiness (health/WarmUpTest checks what it does)
                    "pinion.warm-up.duration", "2s");
        }
    }

    @Test
    void everyBackendIsReadyAndTheServiceIsLive() throws InterruptedException {
        eventually(() -> given().get("/q/health/ready").statusCode() == 200);
        given().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"));
        eventually(() -> given().port(io.pinion.TestApi.MANAGEMENT_PORT)
                        .get("/q/health/group/backends")
                        .statusCode()
                == 200);
        given().port(io.pinion.TestApi.MANAGEMENT_PORT).get("/q/health/group/backends").then()
                .body("checks.name", hasItem("hbase-standby"));
        given().get("/q/metrics").then().statusCode(404);
        given().get("/q/health/live").then().statusCode(200).body("status", equalTo("UP"));
    }

    @Test
    void aUserSignsUpLogsInAndCreatesABoardAndAPinThatReadBack() {
        TestUser ada = newUser();
        TestUser again = login(ada.username(), "password-" + ada.username());
        ada.as().get("/v1/me").then().statusCode(200).body("id", equalTo(again.id()));

        String board = createBoard(ada, "Lisbon");
        String pin = createPin(ada, board, "Tram 28");
        given().get("/v1/boards/" + board).then().statusCode(200)
                .body("name", equalTo("Lisbon")).body("ownerId", equalTo(ada.id())).body("counts.pins", equalTo(1));
        given().get("/v1/pins/" + pin).then().statusCode(200)
                .body("boardId", equalTo(board)).body("description", equalTo("Tram 28"));
        given().get("/v1/boards/" + board + "/pins").then().statusCode(200)
                .body("items.id", equalTo(List.of(pin))).body("nextCursor", equalTo(null));
    }

    @Test
    void followedUsersPinsReachTheHomeFeed() throws InterruptedException {
        TestUser reader = newUser();
        TestUser author = newUser();
        reader.as().put("/v1/me/following/users/" + author.id()).then().statusCode(200)
                .body("following", equalTo(true));
        given().get("/v1/users/" + reader.id() + "/following/users/" + author.id()).then().statusCode(200)
                .body("following", equalTo(true));

        String pin = createPin(author, createBoard(author, "for the feed"), "fresh");
        eventually(() -> reader.as().get("/v1/me/home-feed?limit=25").then().statusCode(200)
                .extract().jsonPath().getList("items.pin.id").contains(pin));
    }

    @Test
    void badInputIsA4xxInTheErrorShape() {
        TestUser user = newUser();
        user.as().body(Map.of("name", "")).post("/v1/boards")
                .then().statusCode(400).contentType(ContentType.JSON)
                .body("error", equalTo("validation_failed")).body("message", notNullValue());
        given().get("/v1/pins/3.5").then().statusCode(400).contentType(ContentType.JSON)
                .body("error", equalTo("invalid_id")).body("message", notNullValue());
        user.as().get("/v1/admin/topology").then().statusCode(403).body("error", equalTo("forbidden"));
    }

    @Test
    void theOperatorMakesTheFirstAdminWithBinAdminWhileTheServiceRuns() {
        given().contentType(ContentType.JSON).body(Map.of("username", ADMIN, "password", "password-" + ADMIN))
                .post("/v1/users");
        login(ADMIN, "password-" + ADMIN).as().get("/v1/admin/topology").then().statusCode(403);
        String shown = Operator.admin("grant", ADMIN, "admin");
        assertTrue(shown.contains("roles [admin]"), shown);
        login(ADMIN, "password-" + ADMIN).as().get("/v1/admin/topology").then().statusCode(200)
                .body("mysql.shardCount", equalTo(64))
                .body("hbase.roles.materializedStandby", equalTo("hbase-standby"));
    }

    /** Fan-out and readiness are asynchronous: up to 90 s. */
    private static void eventually(BooleanSupplier condition) throws InterruptedException {
        Wait.within(90_000, condition);
    }
}
