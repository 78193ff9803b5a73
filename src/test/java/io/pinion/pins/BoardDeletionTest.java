package io.pinion.pins;

import static io.pinion.TestApi.createBoard;
import static io.pinion.TestApi.createPin;
import static io.pinion.TestApi.newUser;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.pinion.TestApi.TestUser;
import io.pinion.Wait;
import io.pinion.id.PinionId;
import io.pinion.stack.StackTest;
import io.pinion.store.MappingStore;
import io.pinion.store.MappingTable;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Deleting a board deletes its pins from every read path: by id, in the owner's pin list and count, as originals to
 * save, and a saved copy on it gives its save back; a board with more pins than go at once loses the rest through
 * its purge job within seconds. Another board of the owner keeps its pins.
 */
@QuarkusTest
@StackTest
class BoardDeletionTest {

    @Inject
    MappingStore mappings;

    @Test
    void aDeletedBoardsPinsAreGoneEverywhere() {
        TestUser owner = newUser();
        TestUser saver = newUser();
        TestUser other = newUser();
        String board = createBoard(owner, "Going");
        String kept = createBoard(owner, "Staying");
        String pin = createPin(owner, board, "goes with its board");
        String stays = createPin(owner, kept, "stays");
        String original = createPin(other, createBoard(other, "Originals"), "saved onto the board");
        String copy = owner.as().body(Map.of("boardId", board)).post("/v1/pins/" + original + "/saves")
                .then().statusCode(201).extract().path("id");
        given().get("/v1/pins/" + pin).then().statusCode(200);
        given().get("/v1/pins/" + original).then().body("counts.saves", equalTo(1));
        given().get("/v1/users/" + owner.id()).then().body("counts.pins", equalTo(3));

        owner.as().delete("/v1/boards/" + board).then().statusCode(204);

        given().get("/v1/boards/" + board).then().statusCode(404);
        given().get("/v1/pins/" + pin).then().statusCode(404);
        given().get("/v1/pins/" + copy).then().statusCode(404);
        given().get("/v1/users/" + owner.id() + "/pins")
                .then()
                .statusCode(200)
                .body("items.id", equalTo(List.of(stays)));
        given().get("/v1/users/" + owner.id()).then().body("counts.pins", equalTo(1));
        given().get("/v1/pins/" + original).then().body("counts.saves", equalTo(0));
        saver.as().body(Map.of("boardId", createBoard(saver, "Mine"))).post("/v1/pins/" + pin + "/saves")
                .then().statusCode(404);
        given().get("/v1/pins/" + stays).then().statusCode(200);
    }

    @Test
    void aBoardWithMorePinsThanGoAtOnceLosesTheRestThroughItsPurgeJob() throws InterruptedException {
        TestUser owner = newUser();
        String board = createBoard(owner, "Big");
        int count = BoardPurges.AT_ONCE + 60;
        List<String> pins = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            pins.add(createPin(owner, board, "pin " + i));
        }
        owner.as().delete("/v1/boards/" + board).then().statusCode(204);
        PinionId boardId = PinionId.parse(board);
        int[] left = {Integer.MAX_VALUE};
        Wait.within(20_000, () -> {
            left[0] = mappings.page(MappingTable.BOARD_HAS_PINS, boardId, null, 1000).await()
                    .atMost(Duration.ofSeconds(5)).toIds().size();
            return left[0] == 0;
        }, () -> "no pin left on the deleted board (" + left[0] + " left)");
        given().get("/v1/pins/" + pins.get(0)).then().statusCode(404);
        given().get("/v1/pins/" + pins.get(count - 1)).then().statusCode(404);
        given().get("/v1/users/" + owner.id()).then().body("counts.pins", equalTo(0));
        assertTrue(given().get("/v1/users/" + owner.id() + "/pins")
                .then()
                .extract()
                .jsonPath()
                .getList("items")
                .isEmpty());
    }
}
