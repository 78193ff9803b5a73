package io.pinion.security;

import static io.pinion.TestApi.newUser;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.pinion.TestApi.TestUser;
import io.pinion.Wait;
import io.pinion.stack.StackTest;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.response.Response;

/**
 * Logins over the per-username limit and writes over the per-user limit answer 429 with {@code Retry-After}; a
 * login for an unknown name takes as long as one with a wrong password; passwords longer than bcrypt reads are
 * refused.
 */
@QuarkusTest
@StackTest
@TestProfile(RateLimitTest.Limited.class)
class RateLimitTest {

    /** Low limits for this test only (the test profile turns them off). */
    public static class Limited implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("pinion.rate-limit.enabled", "true",
                    "pinion.rate-limit.logins-per-user-and-address-per-minute", "3",
                    "pinion.rate-limit.logins-per-user-per-minute", "6",
                    "pinion.rate-limit.login-slowdown-max", "1s",
                    "pinion.rate-limit.logins-per-address-per-minute", "20",
                    "pinion.rate-limit.writes-per-second", "1",
                    "pinion.rate-limit.write-burst", "5",
                    // the default cost, not the tests' cheapest: an unknown name must cost a real bcrypt check
                    "pinion.auth.bcrypt-cost", "10");
        }
    }

    @Test
    void loginsOverThePerUserLimitAnswer429WithRetryAfter() {
        TestUser user = newUser();
        String from = "192.0.2.10";
        List<Integer> statuses = new ArrayList<>();
        Response last = null;
        for (int i = 0; i < 5; i++) {
            last = login(user.username(), "wrong-password", from);
            statuses.add(last.statusCode());
        }
        assertEquals(429, statuses.get(4), "statuses " + statuses);
        last.then().body("error", equalTo("rate_limited")).header("Retry-After", notNullValue());
    }

    /**
     * Failed logins for a user from one address (behind the trusted proxy, told apart by {@code X-Forwarded-For})
     * do not stop that user logging in from another: the refusing limit is per username and address; the limit per
     * username from anywhere only slows logins down.
     */
    @Test
    void anAttackerFromOneAddressCannotLockAUserOutOfAnother() {
        TestUser user = newUser();
        String attacker = "203.0.113.7";
        List<Integer> statuses = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            statuses.add(login(user.username(), "wrong-password", attacker).statusCode());
        }
        assertEquals(429, statuses.get(6), "the attacker is refused: " + statuses);
        long start = System.nanoTime();
        login(user.username(), "password-" + user.username(), "198.51.100.2").then().statusCode(200)
                .body("token", notNullValue());
        long tookMs = (System.nanoTime() - start) / 1_000_000;
        assertTrue(tookMs < 3_000, "the user's own login took " + tookMs + " ms");
    }

    /** Behind the trusted proxy each client has its own address limit: one client's attempts leave the others'. */
    @Test
    void clientsBehindTheTrustedProxyHaveTheirOwnAddressLimits() {
        String busy = "203.0.113.20";
        int limited = 0;
        for (int i = 0; i < 24; i++) {
            limited += login("nobody_" + i + "_" + (System.nanoTime() % 100_000), "wrong-password", busy)
                                    .statusCode()
                            == 429
                    ? 1
                    : 0;
        }
        assertTrue(limited > 0, "the busy address was limited");
        TestUser user = newUser();
        login(user.username(), "password-" + user.username(), "203.0.113.21").then().statusCode(200);
    }

    private static Response login(String username, String password, String forwardedFor) {
        return given().contentType(ContentType.JSON).header("X-Forwarded-For", forwardedFor)
                .body(Map.of("username", username, "password", password)).post("/v1/sessions");
    }

    @Test
    void writesOverThePerUserLimitAnswer429() throws InterruptedException {
        TestUser user = newUser();
        int limited = 0;
        for (int i = 0; i < 12; i++) {
            io.restassured.response.Response response = user.as().body(Map.of("name", "b" + i)).post("/v1/boards");
            int status = response.statusCode();
            assertTrue(status == 201 || status == 429, "status " + status);
            if (status == 429) {
                limited++;
                // the one error shape, with the request's id, and when to try again
                response.then().contentType(ContentType.JSON).body("error", equalTo("rate_limited"))
                        .body("message", equalTo("too many writes; slow down"))
                        .body("requestId", equalTo(response.header("X-Request-Id")))
                        .header("Retry-After", notNullValue());
            }
        }
        assertTrue(limited > 0, "some writes were limited");
        user.as().get("/v1/me").then().statusCode(200); // reads are not limited
        createBoardLater(user);
    }

    @Test
    void anUnknownNameCostsTheSameBcryptAsAWrongPasswordAndLongPasswordsAreRefused() {
        TestUser user = newUser();
        long known = time(user.username());
        long unknown = time("nobody_" + System.nanoTime());
        assertTrue(unknown > known / 3, "an unknown name took " + unknown + " ms, a wrong password " + known + " ms");
        given().contentType(ContentType.JSON).body(Map.of("username", "long_pw_" + (System.nanoTime() % 100000),
                        "password", "é".repeat(40))).post("/v1/users")
                .then().statusCode(400).body("error", equalTo("password_too_long"));
        given().contentType(ContentType.JSON).body(Map.of("username", "long_pw_" + (System.nanoTime() % 100000),
                        "password", "x".repeat(73))).post("/v1/users")
                .then().statusCode(400).body("error", equalTo("validation_failed"));
    }

    private static long time(String username) {
        long best = Long.MAX_VALUE;
        for (int i = 0; i < 2; i++) {
            long start = System.nanoTime();
            given().contentType(ContentType.JSON).body(Map.of("username", username, "password", "wrong-password-" + i))
                    .post("/v1/sessions").then().statusCode(401);
            best = Math.min(best, (System.nanoTime() - start) / 1_000_000);
        }
        return best;
    }

    private static void createBoardLater(TestUser user) throws InterruptedException {
        Wait.within(10_000, () -> user.as().body(Map.of("name", "later")).post("/v1/boards").statusCode() != 429,
                "writes resume after the wait");
    }
}
