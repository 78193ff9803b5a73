package io.pinion.web;

import static io.pinion.TestApi.createBoard;
import static io.pinion.TestApi.newUser;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;

import org.junit.jupiter.api.Test;

import io.pinion.TestApi.TestUser;
import io.pinion.stack.StackTest;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;

/**
 * Bad requests of every kind get a 4xx in the one error shape, never a 5xx.
 */
@QuarkusTest
@StackTest
class BadInputTest {

    @Test
    void malformedJsonIs400() {
        TestUser user = newUser();
        user.as().body("{\"name\": ").post("/v1/boards")
                .then().statusCode(400).contentType(ContentType.JSON)
                .body("error", equalTo("malformed_json")).body("message", notNullValue());
        user.as().body("[1, 2]").post("/v1/boards")
                .then().statusCode(400).body("error", equalTo("malformed_json"));
        user.as().body("{\"name\": {\"nested\": true}}").post("/v1/boards")
                .then().statusCode(400).body("error", equalTo("malformed_json"));
    }

    @Test
    void aMissingBodyIs400() {
        TestUser user = newUser();
        user.as().post("/v1/boards").then().statusCode(400).body("error", equalTo("validation_failed"));
    }

    @Test
    void aBodyThatIsNotJsonIs415() {
        TestUser user = newUser();
        given().header("Authorization", "Bearer " + user.token()).contentType(ContentType.TEXT).body("name=x")
                .post("/v1/boards")
                .then().statusCode(415).body("error", equalTo("unsupported_media_type"));
    }

    @Test
    void idsOfTheWrongTypeOrShapeAre400AndUnknownShards404() {
        TestUser user = newUser();
        String board = createBoard(user, "typed");
        given().get("/v1/pins/" + board).then().statusCode(400).body("error", equalTo("wrong_id_type"));
        given().get("/v1/boards/" + user.id() + "/pins").then().statusCode(400).body("error", equalTo("wrong_id_type"));
        given().get("/v1/pins/3.5").then().statusCode(400).body("error", equalTo("invalid_id"));
        given().get("/v1/pins/99999999999999999999999").then().statusCode(400).body("error", equalTo("invalid_id"));
        long unknownShard = (5000L << 46) | (1L << 36) | 7;
        given().get("/v1/pins/" + unknownShard).then().statusCode(404).body("error", equalTo("pin_not_found"));
        given().get("/v1/boards/" + ((5000L << 46) | (2L << 36) | 7) + "/pins").then().statusCode(404);
    }

    @Test
    void writesWithoutATokenAre401() {
        given().contentType(ContentType.JSON).body("{\"boardId\":\"1\",\"imageUrl\":\"https://x.example/a.jpg\"}")
                .post("/v1/pins").then().statusCode(401).body("error", equalTo("unauthorized"));
        given().put("/v1/pins/" + ((1L << 46) | (1L << 36) | 1) + "/like").then().statusCode(401);
        given().header("Authorization", "Basic Zm9vOmJhcg==").delete("/v1/pins/" + ((1L << 46) | (1L << 36) | 1))
                .then().statusCode(401);
    }

    @Test
    void adminEndpointsNeedTheAdminRole() {
        TestUser user = newUser();
        user.as().get("/v1/admin/topology").then().statusCode(403).body("error", equalTo("forbidden"));
        given().get("/v1/admin/topology").then().statusCode(401).body("error", equalTo("unauthorized"));
    }
}
