package io.pinion.graph;

import static io.pinion.TestApi.createBoard;
import static io.pinion.TestApi.newUser;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.pinion.TestApi.TestUser;
import io.pinion.TestApi;
import io.pinion.stack.StackTest;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;

/**
 * Every bad input to the follow API gets a 4xx in the one error shape.
 */
@QuarkusTest
@StackTest
class GraphBadInputTest {

    /** A well-formed user id on a shard of the topology that no user has. */
    private static String unknownUser(TestUser near) {
        long id = Long.parseLong(near.id());
        return Long.toString((id & ~((1L << 36) - 1)) | ((1L << 36) - 2));
    }

    @Test
    void unknownTargetsAre404() {
        TestUser a = newUser();
        String nobody = unknownUser(a);
        String board = createBoard(a, "mine");
        String missingBoard = Long.toString(Long.parseLong(board) + 1_000_000);
        a.as().put("/v1/me/following/users/" + nobody).then().statusCode(404).contentType(ContentType.JSON)
                .body("error", equalTo("user_not_found")).body("message", notNullValue());
        a.as().delete("/v1/me/following/users/" + nobody)
                .then()
                .statusCode(404)
                .body("error", equalTo("user_not_found"));
        a.as().put("/v1/me/following/boards/" + missingBoard)
                .then()
                .statusCode(404)
                .body("error", equalTo("board_not_found"));
        given().get("/v1/users/" + a.id() + "/following/users/" + nobody)
                .then()
                .statusCode(404)
                .body("error", equalTo("user_not_found"));
        given().get("/v1/users/" + nobody + "/followers")
                .then()
                .statusCode(404)
                .body("error", equalTo("user_not_found"));
        given().get("/v1/boards/" + missingBoard + "/followers")
                .then()
                .statusCode(404)
                .body("error", equalTo("board_not_found"));
        long unknownShard = (5000L << 46) | (3L << 36) | 7;
        a.as().put("/v1/me/following/users/" + unknownShard).then().statusCode(404);
    }

    @Test
    void followingYourselfOrYourOwnBoardIs400() {
        TestUser a = newUser();
        String board = createBoard(a, "own");
        a.as().put("/v1/me/following/users/" + a.id())
                .then()
                .statusCode(400)
                .body("error", equalTo("cannot_follow_self"));
        a.as().put("/v1/me/following/boards/" + board)
                .then()
                .statusCode(400)
                .body("error", equalTo("cannot_follow_self"));
    }

    @Test
    void wrongIdTypesAndShapesAre400() {
        TestUser a = newUser();
        String board = createBoard(a, "typed");
        String pin = TestApi.createPin(a, board, "a pin");
        a.as().put("/v1/me/following/users/" + board).then().statusCode(400).body("error", equalTo("wrong_id_type"));
        a.as().put("/v1/me/following/boards/" + a.id()).then().statusCode(400).body("error", equalTo("wrong_id_type"));
        a.as().put("/v1/me/following/boards/" + pin).then().statusCode(400).body("error", equalTo("wrong_id_type"));
        a.as().put("/v1/me/following/users/abc").then().statusCode(400).body("error", equalTo("invalid_id"));
        given().get("/v1/users/" + a.id() + "/following/users/-5").then().statusCode(400);
        given().get("/v1/users/" + board + "/followers").then().statusCode(400).body("error", equalTo("wrong_id_type"));
        a.as().queryParam("ids", a.id() + "," + board).get("/v1/me/following/users").then().statusCode(400)
                .body("error", equalTo("wrong_id_type"));
        a.as().queryParam("ids", "")
                .get("/v1/me/following/users")
                .then()
                .statusCode(400)
                .body("error", equalTo("invalid_ids"));
    }

    @Test
    void batchChecksTakeAtMostAHundredIds() {
        TestUser a = newUser();
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 101; i++) {
            ids.add(a.id());
        }
        a.as().queryParam("ids", String.join(",", ids)).get("/v1/me/following/users").then().statusCode(400)
                .body("error", equalTo("too_many_ids"));
        a.as().queryParam("ids", String.join(",", ids.subList(0, 100)))
                .get("/v1/me/following/users")
                .then()
                .statusCode(200)
                .body("following.size()", equalTo(0));
    }

    @Test
    void malformedCursorsKindsLimitsAndInterestsAre400() {
        TestUser a = newUser();
        TestUser b = newUser();
        String board = createBoard(b, "listed");
        given().queryParam("cursor", "garbage").get("/v1/users/" + a.id() + "/followers").then().statusCode(400)
                .body("error", equalTo("invalid_cursor"));
        given().queryParam("cursor", "eyJ4IjoxfQ.AAAA").get("/v1/boards/" + board + "/followers").then().statusCode(400)
                .body("error", equalTo("invalid_cursor"));
        given().queryParam("kind", "sideways").get("/v1/users/" + a.id() + "/followers").then().statusCode(400)
                .body("error", equalTo("invalid_kind"));
        given().queryParam("kind", "sideways").get("/v1/boards/" + board + "/followers").then().statusCode(400)
                .body("error", equalTo("invalid_kind"));
        given().queryParam("limit", "0").get("/v1/users/" + a.id() + "/following").then().statusCode(400)
                .body("error", equalTo("invalid_limit"));
        a.as().put("/v1/me/following/interests/%21%21")
                .then()
                .statusCode(400)
                .body("error", equalTo("invalid_interest"));
        a.as().put("/v1/me/following/interests/" + "x".repeat(41))
                .then()
                .statusCode(400)
                .body("error", equalTo("invalid_interest"));
        given().get("/v1/boards/" + board + "/receivers").then().statusCode(401);
        TestApi.worker()
                .as()
                .queryParam("limit", "5000")
                .get("/v1/boards/" + board + "/receivers")
                .then()
                .statusCode(400)
                .body("error", equalTo("invalid_limit"));
    }

    @Test
    void aCursorFromOneListIsRefusedByAnother() {
        TestUser a = newUser();
        TestUser b = newUser();
        for (int i = 0; i < 3; i++) {
            newUser().as().put("/v1/me/following/users/" + a.id()).then().statusCode(200);
        }
        String cursor = given().queryParam("limit", 1).get("/v1/users/" + a.id() + "/followers").then().statusCode(200)
                .extract().path("nextCursor");
        given().queryParam("cursor", cursor).get("/v1/users/" + b.id() + "/followers").then().statusCode(400)
                .body("error", equalTo("invalid_cursor"));
        given().queryParam("cursor", cursor).queryParam("kind", "implicit").get("/v1/users/" + a.id() + "/followers")
                .then().statusCode(400).body("error", equalTo("invalid_cursor"));
    }
}
