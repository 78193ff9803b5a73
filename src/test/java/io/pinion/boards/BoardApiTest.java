package io.pinion.boards;

import static io.pinion.TestApi.createBoard;
import static io.pinion.TestApi.newUser;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.pinion.TestApi.TestUser;
import io.pinion.TestApi;
import io.pinion.stack.StackTest;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

@QuarkusTest
@StackTest
class BoardApiTest {

    @Test
    void aBoardLivesOnItsOwnersShard() {
        TestUser user = newUser();
        String board = createBoard(user, "Recipes");
        assertEquals(TestApi.shardOf(user.id()), TestApi.shardOf(board));
        given().get("/v1/boards/" + board)
                .then().statusCode(200)
                .body("name", equalTo("Recipes"))
                .body("ownerId", equalTo(user.id()))
                .body("counts.pins", equalTo(0));
    }

    @Test
    void theOwnerRenamesAndDeletesButNobodyElse() {
        TestUser owner = newUser();
        TestUser other = newUser();
        String board = createBoard(owner, "Before");
        other.as().body(Map.of("name", "Hijacked")).patch("/v1/boards/" + board)
                .then().statusCode(403).body("error", equalTo("forbidden"));
        other.as().delete("/v1/boards/" + board).then().statusCode(403);
        owner.as().body(Map.of("name", "After")).patch("/v1/boards/" + board)
                .then().statusCode(200).body("name", equalTo("After")).body("description", equalTo("about Before"));
        owner.as().delete("/v1/boards/" + board).then().statusCode(204);
        given().get("/v1/boards/" + board).then().statusCode(404).body("error", equalTo("board_not_found"));
        given().get("/v1/users/" + owner.id() + "/boards")
                .then()
                .statusCode(200)
                .body("items", org.hamcrest.Matchers.empty());
        given().get("/v1/users/" + owner.id()).then().body("counts.boards", equalTo(0));
        owner.as().delete("/v1/boards/" + board).then().statusCode(404);
    }

    @Test
    void aUsersBoardsAreListedNewestFirstAcrossPages() {
        TestUser user = newUser();
        List<String> created = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            created.add(createBoard(user, "board " + i));
        }
        List<String> expected = new ArrayList<>(created);
        java.util.Collections.reverse(expected);

        List<String> seen = new ArrayList<>();
        String cursor = null;
        do {
            var request = given().queryParam("limit", 2);
            if (cursor != null) {
                request.queryParam("cursor", cursor);
            }
            JsonPath page = request.get("/v1/users/" + user.id() + "/boards")
                    .then()
                    .statusCode(200)
                    .extract()
                    .jsonPath();
            seen.addAll(page.getList("items.id"));
            cursor = page.getString("nextCursor");
        } while (cursor != null);
        assertEquals(expected, seen);
    }

    @Test
    void invalidBoardsAreRejected() {
        TestUser user = newUser();
        user.as()
                .body(Map.of("name", "  "))
                .post("/v1/boards")
                .then()
                .statusCode(400)
                .body("error", equalTo("validation_failed"));
        user.as().body(Map.of("name", "x".repeat(101))).post("/v1/boards").then().statusCode(400);
        user.as().body(Map.of("name", "ok", "description", "d".repeat(501))).post("/v1/boards").then().statusCode(400);
        user.as().body("{}").post("/v1/boards").then().statusCode(400).body("error", equalTo("validation_failed"));
        given().contentType("application/json").body(Map.of("name", "anonymous")).post("/v1/boards")
                .then().statusCode(401).body("error", equalTo("unauthorized"));
    }

    @Test
    void unknownFieldsAreIgnored() {
        TestUser user = newUser();
        user.as().body(Map.of("name", "With extras", "color", "red"))
                .post("/v1/boards")
                .then().statusCode(201)
                .body("name", equalTo("With extras"))
                .body("color", nullValue());
    }

    @Test
    void aListShowsOnlyTheRequestedUsersBoards() {
        TestUser a = newUser();
        TestUser b = newUser();
        String boardA = createBoard(a, "A's");
        createBoard(b, "B's");
        given().get("/v1/users/" + a.id() + "/boards").then().statusCode(200)
                .body("items.id", contains(boardA))
                .body("nextCursor", nullValue());
    }
}
