package io.pinion.pins;

import static io.pinion.TestApi.createBoard;
import static io.pinion.TestApi.createPin;
import static io.pinion.TestApi.newUser;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.pinion.TestApi.TestUser;
import io.pinion.TestApi;
import io.pinion.stack.StackTest;
import io.quarkus.test.junit.QuarkusTest;

@QuarkusTest
@StackTest
class PinApiTest {

    @Test
    void aPinIsCreatedOnItsBoardsShardWithNormalizedInterests() {
        TestUser user = newUser();
        String board = createBoard(user, "Trips");
        String pin = user.as()
                .body(Map.of(
                        "boardId",
                        board,
                        "description",
                        "Lisbon",
                        "link",
                        "https://example.com/lisbon",
                        "imageUrl",
                        "https://img.example.com/l.jpg",
                        "interests",
                        List.of("  Travel ", "travel", "City  Breaks")))
                .post("/v1/pins")
                .then()
                .statusCode(201)
                .body("boardId", equalTo(board))
                .body("ownerId", equalTo(user.id()))
                .body("interests", contains("travel", "city breaks"))
                .body("counts.likes", equalTo(0))
                .extract()
                .path("id");
        assertEquals(TestApi.shardOf(board), TestApi.shardOf(pin));
        given().get("/v1/pins/" + pin).then().statusCode(200).body("description", equalTo("Lisbon"));
        given().get("/v1/boards/" + board).then().body("counts.pins", equalTo(1));
    }

    @Test
    void onlyTheBoardOwnerPinsToIt() {
        TestUser owner = newUser();
        TestUser other = newUser();
        String board = createBoard(owner, "Mine");
        other.as().body(Map.of("boardId", board, "imageUrl", "https://img.example.com/x.jpg"))
                .post("/v1/pins").then().statusCode(403).body("error", equalTo("forbidden"));
    }

    @Test
    void badPinFieldsAreRejected() {
        TestUser user = newUser();
        String board = createBoard(user, "Checks");
        user.as().body(Map.of("boardId", board, "imageUrl", "ftp://img/x.jpg")).post("/v1/pins")
                .then().statusCode(400).body("error", equalTo("validation_failed"));
        user.as().body(Map.of("boardId", board, "imageUrl", "https://img.example.com/x.jpg", "link", "not a url"))
                .post("/v1/pins").then().statusCode(400);
        user.as()
                .body(Map.of(
                        "boardId", board, "imageUrl", "https://img.example.com/x.jpg", "description", "d".repeat(501)))
                .post("/v1/pins")
                .then()
                .statusCode(400);
        user.as().body(Map.of("boardId", board)).post("/v1/pins").then().statusCode(400);
        user.as().body(Map.of("boardId", user.id(), "imageUrl", "https://img.example.com/x.jpg"))
                .post("/v1/pins").then().statusCode(400).body("error", equalTo("wrong_id_type"));
        user.as().body(Map.of("boardId", "garbage", "imageUrl", "https://img.example.com/x.jpg"))
                .post("/v1/pins").then().statusCode(400).body("error", equalTo("invalid_id"));
    }

    @Test
    void aDeletedPinDisappearsFromEveryList() {
        TestUser owner = newUser();
        TestUser fan = newUser();
        String board = createBoard(owner, "Short lived");
        String keep = createPin(owner, board, "keep");
        String gone = createPin(owner, board, "gone");
        fan.as().put("/v1/pins/" + gone + "/like").then().statusCode(200);
        fan.as().delete("/v1/pins/" + gone).then().statusCode(403);

        owner.as().delete("/v1/pins/" + gone).then().statusCode(204);

        given().get("/v1/pins/" + gone).then().statusCode(404).body("error", equalTo("pin_not_found"));
        given().get("/v1/boards/" + board + "/pins").then().body("items.id", contains(keep));
        given().get("/v1/users/" + owner.id() + "/pins").then().body("items.id", contains(keep));
        given().get("/v1/users/" + fan.id() + "/likes").then().body("items", empty());
        given().get("/v1/boards/" + board).then().body("counts.pins", equalTo(1));
        given().get("/v1/users/" + owner.id()).then().body("counts.pins", equalTo(1));
        owner.as().delete("/v1/pins/" + gone).then().statusCode(404);
    }

    @Test
    void savingAPinMakesACopyOnTheSaversBoardAndCountsTheSave() {
        TestUser author = newUser();
        TestUser saver = newUser();
        String original = createPin(author, createBoard(author, "Originals"), "original");
        String saverBoard = createBoard(saver, "Saved");

        String copy = saver.as().body(Map.of("boardId", saverBoard)).post("/v1/pins/" + original + "/saves")
                .then().statusCode(201)
                .body("savedFrom", equalTo(original))
                .body("ownerId", equalTo(saver.id()))
                .body("boardId", equalTo(saverBoard))
                .body("description", equalTo("original"))
                .extract().path("id");

        assertEquals(TestApi.shardOf(saverBoard), TestApi.shardOf(copy));
        given().get("/v1/pins/" + original).then().body("counts.saves", equalTo(1));
        given().get("/v1/boards/" + saverBoard + "/pins").then().body("items.id", contains(copy));
        saver.as().body(Map.of("boardId", createBoard(author, "not yours"))).post("/v1/pins/" + original + "/saves")
                .then().statusCode(403);
    }

    /** Every save counted has its inverse: deleting a copy gives its save back, once however often it is asked. */
    @Test
    void deletingASavedCopyTakesItsSaveOffTheOriginal() {
        TestUser author = newUser();
        TestUser first = newUser();
        TestUser second = newUser();
        String original = createPin(author, createBoard(author, "Originals"), "saved twice");
        String copy1 = first.as()
                .body(Map.of("boardId", createBoard(first, "Mine")))
                .post("/v1/pins/" + original + "/saves")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        String copy2 = second.as()
                .body(Map.of("boardId", createBoard(second, "Mine too")))
                .post("/v1/pins/" + original + "/saves")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        given().get("/v1/pins/" + original).then().body("counts.saves", equalTo(2)); // cached with 2 now

        first.as().delete("/v1/pins/" + copy1).then().statusCode(204);
        given().get("/v1/pins/" + original).then().body("counts.saves", equalTo(1));
        first.as().delete("/v1/pins/" + copy1).then().statusCode(404);
        given().get("/v1/pins/" + original).then().body("counts.saves", equalTo(1));
        second.as().delete("/v1/pins/" + copy2).then().statusCode(204);
        given().get("/v1/pins/" + original).then().body("counts.saves", equalTo(0));
    }

    @Test
    void likesAreIdempotentAndCountedExactly() {
        TestUser author = newUser();
        TestUser a = newUser();
        TestUser b = newUser();
        String pin = createPin(author, createBoard(author, "Likeable"), "like me");

        a.as().put("/v1/pins/" + pin + "/like")
                .then()
                .statusCode(200)
                .body("liked", equalTo(true))
                .body("likeCount", equalTo(1));
        a.as().put("/v1/pins/" + pin + "/like").then().statusCode(200).body("likeCount", equalTo(1));
        b.as().put("/v1/pins/" + pin + "/like").then().statusCode(200).body("likeCount", equalTo(2));
        given().get("/v1/pins/" + pin + "/likers").then().statusCode(200)
                .body("items.id", containsInAnyOrder(a.id(), b.id()))
                .body("items[0].id", equalTo(b.id()));

        a.as().delete("/v1/pins/" + pin + "/like")
                .then()
                .statusCode(200)
                .body("liked", equalTo(false))
                .body("likeCount", equalTo(1));
        a.as().delete("/v1/pins/" + pin + "/like").then().statusCode(200).body("likeCount", equalTo(1));
        given().get("/v1/pins/" + pin).then().body("counts.likes", equalTo(1));
        given().get("/v1/users/" + a.id()).then().body("counts.likes", equalTo(0));
        given().get("/v1/users/" + b.id() + "/likes").then().body("items.id", contains(pin));
    }

    @Test
    void likingSomethingThatIsNotThereIs404() {
        TestUser user = newUser();
        long missing = (2L << 46) | (1L << 36) | 68_000_000_000L;
        user.as().put("/v1/pins/" + missing + "/like").then().statusCode(404).body("error", equalTo("pin_not_found"));
    }
}
