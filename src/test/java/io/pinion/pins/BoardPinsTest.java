package io.pinion.pins;

import static io.pinion.TestApi.createBoard;
import static io.pinion.TestApi.createPin;
import static io.pinion.TestApi.newUser;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.pinion.TestApi.TestUser;
import io.pinion.stack.StackTest;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

@QuarkusTest
@StackTest
class BoardPinsTest {

    @Test
    void boardPinsAreNewestFirstAndStableAcrossPages() {
        TestUser user = newUser();
        String board = createBoard(user, "Paged");
        List<String> created = createPins(user, board, 7);
        List<String> expected = new ArrayList<>(created);
        Collections.reverse(expected);

        assertEquals(expected, readAll(board, 3));
        assertEquals(expected, readAll(board, 100));
    }

    @Test
    void theOwnerMovesAPinBeforeOrAfterAnother() {
        TestUser user = newUser();
        String board = createBoard(user, "Ordered");
        List<String> p = createPins(user, board, 5);   // shown as p4 p3 p2 p1 p0

        move(user, board, p.get(0), Map.of("before", p.get(4)));   // p0 p4 p3 p2 p1
        assertEquals(List.of(p.get(0), p.get(4), p.get(3), p.get(2), p.get(1)), readAll(board, 2));

        move(user, board, p.get(4), Map.of("after", p.get(1)));    // p0 p3 p2 p1 p4
        assertEquals(List.of(p.get(0), p.get(3), p.get(2), p.get(1), p.get(4)), readAll(board, 2));

        move(user, board, p.get(1), Map.of("before", p.get(3)));   // p0 p1 p3 p2 p4
        assertEquals(List.of(p.get(0), p.get(1), p.get(3), p.get(2), p.get(4)), readAll(board, 3));
    }

    @Test
    void repeatedMovesIntoTheSameGapRenumberTheBoardAndKeepTheOrder() {
        TestUser user = newUser();
        String board = createBoard(user, "Crowded");
        List<String> p = createPins(user, board, 3);   // p2 p1 p0
        // Move p0 and p2 alternately to just below p1: each move halves the same gap until it runs out (20 bits).
        List<String> expected = null;
        for (int i = 0; i < 25; i++) {
            String moving = i % 2 == 0 ? p.get(0) : p.get(2);
            move(user, board, moving, Map.of("after", p.get(1)));
            String other = i % 2 == 0 ? p.get(2) : p.get(0);
            expected = List.of(p.get(1), moving, other);
        }
        assertEquals(expected, readAll(board, 2));
    }

    @Test
    void movesAreCheckedForOwnershipAndShape() {
        TestUser owner = newUser();
        TestUser other = newUser();
        String board = createBoard(owner, "Guarded");
        List<String> p = createPins(owner, board, 2);
        other.as().body(Map.of("before", p.get(1))).put("/v1/boards/" + board + "/pins/" + p.get(0) + "/position")
                .then().statusCode(403);
        owner.as()
                .body(Map.of("before", p.get(1), "after", p.get(1)))
                .put("/v1/boards/" + board + "/pins/" + p.get(0) + "/position")
                .then()
                .statusCode(400)
                .body("error", equalTo("invalid_move"));
        owner.as().body(Map.of()).put("/v1/boards/" + board + "/pins/" + p.get(0) + "/position")
                .then().statusCode(400);
        String elsewhere = createPin(owner, createBoard(owner, "Elsewhere"), "not here");
        owner.as().body(Map.of("before", elsewhere)).put("/v1/boards/" + board + "/pins/" + p.get(0) + "/position")
                .then().statusCode(404).body("error", equalTo("pin_not_found"));
    }

    @Test
    void limitsAndCursorsAreValidated() {
        TestUser user = newUser();
        String board = createBoard(user, "Limits");
        List<String> pins = createPins(user, board, 3);
        given().queryParam("limit", 0)
                .get("/v1/boards/" + board + "/pins")
                .then()
                .statusCode(400)
                .body("error", equalTo("invalid_limit"));
        given().queryParam("limit", -4)
                .get("/v1/boards/" + board + "/pins")
                .then()
                .statusCode(400)
                .body("error", equalTo("invalid_limit"));
        given().queryParam("limit", "lots")
                .get("/v1/boards/" + board + "/pins")
                .then()
                .statusCode(400)
                .body("error", equalTo("invalid_limit"));
        given().queryParam("limit", 100000)
                .get("/v1/boards/" + board + "/pins")
                .then()
                .statusCode(200)
                .body("items", hasSize(3));

        String cursor = given().queryParam("limit", 1)
                .get("/v1/boards/" + board + "/pins")
                .then()
                .extract()
                .path("nextCursor");
        given().queryParam("cursor", cursor)
                .get("/v1/boards/" + board + "/pins")
                .then()
                .statusCode(200)
                .body("items", hasSize(2));
        String otherBoard = createBoard(user, "Other");
        given().queryParam("cursor", cursor).get("/v1/boards/" + otherBoard + "/pins")
                .then().statusCode(400).body("error", equalTo("invalid_cursor"));
        given().queryParam("cursor", cursor).get("/v1/users/" + user.id() + "/pins")
                .then().statusCode(400).body("error", equalTo("invalid_cursor"));
        String forged =
                java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(("999:" + pins.get(0)).getBytes())
                        + cursor.substring(cursor.indexOf('.'));
        given().queryParam("cursor", forged).get("/v1/boards/" + board + "/pins")
                .then().statusCode(400).body("error", equalTo("invalid_cursor"));
        given().queryParam("cursor", "!!!").get("/v1/boards/" + board + "/pins")
                .then().statusCode(400).body("error", equalTo("invalid_cursor"));
    }

    private static List<String> createPins(TestUser user, String board, int count) {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            ids.add(createPin(user, board, "pin " + i));
        }
        return ids;
    }

    private static void move(TestUser user, String board, String pin, Map<String, String> where) {
        user.as().body(where).put("/v1/boards/" + board + "/pins/" + pin + "/position").then().statusCode(204);
    }

    static List<String> readAll(String board, int pageSize) {
        List<String> seen = new ArrayList<>();
        String cursor = null;
        do {
            var request = given().queryParam("limit", pageSize);
            if (cursor != null) {
                request.queryParam("cursor", cursor);
            }
            JsonPath page = request.get("/v1/boards/" + board + "/pins").then().statusCode(200).extract().jsonPath();
            seen.addAll(page.getList("items.id"));
            cursor = page.getString("nextCursor");
        } while (cursor != null);
        return seen;
    }
}
