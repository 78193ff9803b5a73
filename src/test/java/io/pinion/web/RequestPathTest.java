package io.pinion.web;

import static io.pinion.TestApi.newUser;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import org.junit.jupiter.api.Test;

import io.pinion.TestApi.TestUser;
import io.pinion.stack.StackTest;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.infrastructure.Infrastructure;

/**
 * The request path without its two removed costs: Mutiny callbacks are not wrapped in context-propagation
 * snapshots ({@link MutinyCallbacks}), and authentication failures still reach the error mappers in the API's error
 * shape after {@link AuthFailureHandoff} took Quarkus REST's filter's place, while the caller is still known to the
 * resources that run after a successful authentication.
 */
@QuarkusTest
@StackTest
class RequestPathTest {

    @Test
    void mutinyCallbacksAreNotWrapped() {
        Function<String, String> callback = s -> s;
        assertSame(callback, Infrastructure.decorate(callback), "a callback decorator is still installed");
    }

    @Test
    void authenticationFailuresKeepTheErrorShape() {
        List<String> secondAnswers = Collections.synchronizedList(new ArrayList<>());
        Logger errors = Logger.getLogger("io.quarkus.vertx.http.runtime.QuarkusErrorHandler");
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                if (record.getLevel().intValue() >= Level.SEVERE.intValue()) {
                    secondAnswers.add(String.valueOf(record.getMessage()) + " " + record.getThrown());
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        errors.addHandler(capture);
        try {
            refusedRequests();
        } finally {
            errors.removeHandler(capture);
        }
        // answered once: the error mappers' answer, and no failure handler trying to write a second one
        assertEquals(List.of(), secondAnswers);
    }

    private static void refusedRequests() {
        given().header("Authorization", "Bearer not.a.token").get("/v1/me/home-feed")
                .then().statusCode(401).body("error", equalTo("unauthorized"))
                .body("message", equalTo("the bearer token is invalid or expired"));
        given().put("/v1/me/following/interests/cats")
                .then().statusCode(401).body("error", equalTo("unauthorized"));
        // a write with a bad token: the write limit's route resolves the identity first, the resource answers 401
        given().header("Authorization", "Bearer not.a.token").put("/v1/me/following/interests/cats")
                .then().statusCode(401).body("error", equalTo("unauthorized"))
                .body("message", equalTo("the bearer token is invalid or expired"));
        TestUser user = newUser();
        user.as().get("/v1/admin/overview").then().statusCode(403).body("error", equalTo("forbidden"));
        user.as().put("/v1/me/following/interests/cats").then().statusCode(200).body("following", equalTo(true));
    }
}
