package io.pinion.web;

import static io.pinion.TestApi.admin;
import static io.pinion.TestApi.newUser;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import org.jboss.logmanager.ExtLogRecord;
import org.junit.jupiter.api.Test;

import io.pinion.TestApi.TestUser;
import io.pinion.stack.StackTest;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;

/**
 * Every answer names its request's id ({@code X-Request-Id}): the caller's when it is an acceptable one, a new one
 * otherwise; the error body carries the same id, and so does every log line of the request, also one written after
 * the request's database round trips.
 */
@QuarkusTest
@StackTest
class RequestIdTest {

    private static final String MISSING_PIN = "/v1/pins/999999999999999";

    @Test
    void anAnswerWithoutACallersIdGetsANewOneAndItsErrorBodyTheSame() {
        Response first = given().get(MISSING_PIN);
        Response second = given().get(MISSING_PIN);
        String id = first.header(RequestIds.HEADER);
        assertTrue(id != null && id.matches("[0-9a-f]{16}"), "a new id: " + id);
        assertEquals(id, first.jsonPath().getString("requestId"), "the error body names the same request");
        assertNotEquals(id, second.header(RequestIds.HEADER), "each request its own");
        assertTrue(given().get("/v1/me").header(RequestIds.HEADER) != null, "a 401 has one too");
    }

    @Test
    void aCallersIdIsKeptWhenItIsOneAndReplacedWhenItIsNot() {
        String mine = "checkout-7f3a.2:retry/1";
        Response kept = given().header(RequestIds.HEADER, mine).get(MISSING_PIN);
        assertEquals(mine, kept.header(RequestIds.HEADER));
        assertEquals(mine, kept.jsonPath().getString("requestId"));

        for (String bad : List.of("x".repeat(RequestIds.MAX_LENGTH + 1), "has space", "quote\"d", "<script>")) {
            String given = given().header(RequestIds.HEADER, bad).get(MISSING_PIN).header(RequestIds.HEADER);
            assertTrue(given.matches("[0-9a-f]{16}"), "'" + bad + "' replaced by a new id, got " + given);
        }
    }

    @Test
    void aRequestRefusedForItsSizeStillNamesItsId() {
        Response refused = given().header(RequestIds.HEADER, "too-long-1").get("/v1/pins/" + "1".repeat(9000));
        assertEquals(414, refused.statusCode());
        assertEquals("too-long-1", refused.header(RequestIds.HEADER));
        assertEquals("too-long-1", refused.jsonPath().getString("requestId"));
    }

    @Test
    void theLogLinesOfARequestNameItsIdAfterItsDatabaseRoundTrips() {
        TestUser admin = admin();
        TestUser user = newUser();
        List<String> seen = new CopyOnWriteArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                if (record instanceof ExtLogRecord ext && ext.getFormattedMessage().contains(user.id())) {
                    seen.add(String.valueOf(ext.getMdc(RequestIds.KEY)));
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger grants = Logger.getLogger("io.pinion.users.UserGrants");
        grants.addHandler(capture);
        try {
            String id = "grant-" + user.id();
            admin.as().header(RequestIds.HEADER, id).put("/v1/admin/users/" + user.id() + "/roles/worker")
                    .then().statusCode(200);
            assertEquals(List.of(id), seen, "the grant's log line, written once the row was stored");
        } finally {
            grants.removeHandler(capture);
        }
    }
}
