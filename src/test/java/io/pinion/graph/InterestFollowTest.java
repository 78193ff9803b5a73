package io.pinion.graph;

import static io.pinion.TestApi.newUser;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.pinion.TestApi.TestUser;
import io.pinion.stack.StackTest;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Interests: normalized names, both sides (the user's interests and the interest's followers), counts, batch checks.
 */
@QuarkusTest
@StackTest
class InterestFollowTest {

    @Test
    void followingAnInterestIsNormalizedListedOnBothSidesAndIdempotent() {
        String topic = "Topic " + UUID.randomUUID().toString().substring(0, 8).toUpperCase();
        String normalized = topic.toLowerCase();
        TestUser a = newUser();
        TestUser b = newUser();
        a.as().put("/v1/me/following/interests/" + topic).then().statusCode(200)
                .body("following", equalTo(true)).body("changed", equalTo(true));
        a.as().put("/v1/me/following/interests/  " + normalized.replace(" ", "   ")).then().statusCode(200)
                .body("changed", equalTo(false));
        b.as().put("/v1/me/following/interests/" + normalized).then().statusCode(200);

        assertEquals(List.of(normalized), Graph.all("/v1/users/" + a.id() + "/following?kind=interests"));
        assertEquals(List.of(b.id(), a.id()), Graph.all("/v1/interests/" + topic + "/followers"));
        assertEquals(1, Graph.userCounts(a.id()).getLong("interests"));

        a.as().delete("/v1/me/following/interests/" + topic).then().statusCode(200).body("changed", equalTo(true));
        assertEquals(List.of(b.id()), Graph.all("/v1/interests/" + normalized + "/followers"));
        assertEquals(0, Graph.userCounts(a.id()).getLong("interests"));
    }

    @Test
    void batchChecksAnswerWhichOfTheGivenUsersAndBoardsAreFollowed() {
        TestUser a = newUser();
        TestUser followed = newUser();
        TestUser notFollowed = newUser();
        TestUser boardOwner = newUser();
        String viaOwner = io.pinion.TestApi.createBoard(followed, "through its owner");
        String unfollowed = io.pinion.TestApi.createBoard(followed, "unfollowed");
        String direct = io.pinion.TestApi.createBoard(boardOwner, "followed directly");
        String other = io.pinion.TestApi.createBoard(boardOwner, "not followed");
        Graph.followUser(a, followed.id());
        Graph.unfollowBoard(a, unfollowed);
        Graph.followBoard(a, direct);

        List<String> users = a.as().queryParam(
                        "ids", String.join(",", notFollowed.id(), followed.id(), boardOwner.id()))
                .get("/v1/me/following/users")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("following", String.class);
        assertEquals(List.of(followed.id()), users);
        List<String> boards = a.as().queryParam("ids", String.join(",", other, direct, unfollowed, viaOwner))
                .get("/v1/me/following/boards")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("following", String.class);
        assertEquals(List.of(direct, viaOwner), boards);
        assertTrue(Graph.followsBoard(a.id(), viaOwner));
        given().get("/v1/boards/" + direct).then().body("counts.followers", equalTo(1));
    }
}
