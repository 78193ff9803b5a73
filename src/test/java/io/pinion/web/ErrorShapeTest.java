package io.pinion.web;

import static io.pinion.TestApi.admin;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;

import org.junit.jupiter.api.Test;

import io.pinion.stack.StackTest;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;

/**
 * Every failure answers with one JSON shape, {"error": code, "message": text}, and the right status.
 */
@QuarkusTest
@StackTest
class ErrorShapeTest {

    @Test
    void anUnknownPathIsA404InTheErrorShape() {
        given().when().get("/v1/no-such-thing")
                .then().statusCode(404)
                .contentType(ContentType.JSON)
                .body("error", equalTo("not_found"))
                .body("message", notNullValue());
    }

    @Test
    void anOverLongUriIsA414InTheErrorShape() {
        given().when().get("/v1/pins/" + "1".repeat(10_000))
                .then().statusCode(414)
                .contentType(ContentType.JSON)
                .body("error", equalTo("uri_too_long"))
                .body("message", notNullValue());
    }

    @Test
    void overLargeHeadersAreA431InTheErrorShape() {
        given().header("X-Padding", "p".repeat(20_000)).when().get("/v1/pins/1")
                .then().statusCode(431)
                .contentType(ContentType.JSON)
                .body("error", equalTo("headers_too_large"))
                .body("message", notNullValue());
    }

    @Test
    void aWrongMethodIsA405InTheErrorShape() {
        admin().as().when().delete("/v1/admin/topology")
                .then().statusCode(405)
                .contentType(ContentType.JSON)
                .body("error", equalTo("method_not_allowed"));
    }

    @Test
    void aShardOutsideTheTopologyIsA404() {
        admin().as().when().get("/v1/admin/topology/shards/64")
                .then().statusCode(404)
                .body("error", equalTo("shard_not_found"))
                .body("message", containsString("0..63"));
    }

    @Test
    void anOutOfRangeShardNumberFailsValidation() {
        admin().as().when().get("/v1/admin/topology/shards/70000")
                .then().statusCode(400)
                .contentType(ContentType.JSON)
                .body("error", equalTo("validation_failed"));
    }

    @Test
    void aShardThatIsNotANumberIsRejectedInTheErrorShape() {
        admin().as().when().get("/v1/admin/topology/shards/abc")
                .then().statusCode(404)
                .contentType(ContentType.JSON)
                .body("error", equalTo("not_found"));
    }

    @Test
    void aShardInsideTheTopologyNamesItsHost() {
        admin().as().when().get("/v1/admin/topology/shards/31")
                .then().statusCode(200)
                .body("database", equalTo("db00031"))
                .body("host", equalTo("mysql-1"))
                .body("master", equalTo("127.0.0.1:33061"))
                .body("open", equalTo(true));
    }
}
