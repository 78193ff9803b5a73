package io.pinion.pins;

import static io.pinion.TestApi.createBoard;
import static io.pinion.TestApi.createPin;
import static io.pinion.TestApi.newUser;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import java.util.Map;

import org.junit.jupiter.api.Test;

import io.pinion.TestApi.TestUser;
import io.pinion.stack.StackTest;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Every counter comes back to where it started when its inverse runs, each read through the object cache (a count
 * must never drift): like and unlike, save and delete of the copy, follow and unfollow (users and boards), pin create
 * and delete, board create and delete (with the pins on it).
 */
@QuarkusTest
@StackTest
class CounterPairsTest {

    @Test
    void everyCounterReturnsWhenItsInverseRuns() {
        TestUser author = newUser();
        TestUser fan = newUser();
        String board = createBoard(author, "Counted");
        String pin = createPin(author, board, "counted");
        user(author).body("counts.pins", equalTo(1)).body("counts.boards", equalTo(1));
        given().get("/v1/boards/" + board).then().body("counts.pins", equalTo(1));

        // like / unlike: the pin's likes and the fan's likes
        fan.as().put("/v1/pins/" + pin + "/like").then().statusCode(200);
        given().get("/v1/pins/" + pin).then().body("counts.likes", equalTo(1));
        user(fan).body("counts.likes", equalTo(1));
        fan.as().delete("/v1/pins/" + pin + "/like").then().statusCode(200);
        given().get("/v1/pins/" + pin).then().body("counts.likes", equalTo(0));
        user(fan).body("counts.likes", equalTo(0));

        // save / delete the copy: the original's saves, the saver's pins and boards
        String fanBoard = createBoard(fan, "Saved");
        String copy = fan.as().body(Map.of("boardId", fanBoard)).post("/v1/pins/" + pin + "/saves")
                .then().statusCode(201).extract().path("id");
        given().get("/v1/pins/" + pin).then().body("counts.saves", equalTo(1));
        user(fan).body("counts.pins", equalTo(1));
        fan.as().delete("/v1/pins/" + copy).then().statusCode(204);
        given().get("/v1/pins/" + pin).then().body("counts.saves", equalTo(0));
        user(fan).body("counts.pins", equalTo(0));
        given().get("/v1/boards/" + fanBoard).then().body("counts.pins", equalTo(0));

        // follow / unfollow a user and a board
        fan.as().put("/v1/me/following/users/" + author.id()).then().statusCode(200);
        user(author).body("counts.followers", equalTo(1));
        user(fan).body("counts.following", equalTo(1));
        fan.as().delete("/v1/me/following/users/" + author.id()).then().statusCode(200);
        user(author).body("counts.followers", equalTo(0));
        user(fan).body("counts.following", equalTo(0));
        fan.as().put("/v1/me/following/boards/" + board).then().statusCode(200);
        given().get("/v1/boards/" + board).then().body("counts.followers", equalTo(1));
        fan.as().delete("/v1/me/following/boards/" + board).then().statusCode(200);
        given().get("/v1/boards/" + board).then().body("counts.followers", equalTo(0));

        // pin create / delete, then board create / delete with a pin on it
        String second = createPin(author, board, "second");
        user(author).body("counts.pins", equalTo(2));
        author.as().delete("/v1/pins/" + second).then().statusCode(204);
        user(author).body("counts.pins", equalTo(1));
        given().get("/v1/boards/" + board).then().body("counts.pins", equalTo(1));
        author.as().delete("/v1/boards/" + board).then().statusCode(204);
        user(author).body("counts.pins", equalTo(0)).body("counts.boards", equalTo(0));
    }

    private static io.restassured.response.ValidatableResponse user(TestUser user) {
        return given().get("/v1/users/" + user.id()).then().statusCode(200);
    }
}
