package io.pinion.web;

import static io.pinion.TestApi.newUser;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.function.Function;

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
        given().header("Authorization", "Bearer not.a.token").get("/v1/me/home-feed")
                .then().statusCode(401).body("error", equalTo("unauthorized"))
                .body("message", equalTo("the bearer token is invalid or expired"));
        given().put("/v1/me/following/interests/cats")
                .then().statusCode(401).body("error", equalTo("unauthorized"));
        TestUser user = newUser();
        user.as().get("/v1/admin/overview").then().statusCode(403).body("error", equalTo("forbidden"));
        user.as().put("/v1/me/following/interests/cats").then().statusCode(200).body("following", equalTo(true));
    }
}
