package io.pinion.graph;

import static io.pinion.TestApi.createBoard;
import static io.pinion.TestApi.newUser;
import static io.pinion.graph.Graph.all;
import static io.pinion.graph.Graph.boardFollowerCount;
import static io.pinion.graph.Graph.followBoard;
import static io.pinion.graph.Graph.followUser;
import static io.pinion.graph.Graph.followsBoard;
import static io.pinion.graph.Graph.followsUser;
import static io.pinion.graph.Graph.followsUserImplicitly;
import static io.pinion.graph.Graph.unfollowBoard;
import static io.pinion.graph.Graph.unfollowUser;
import static io.pinion.graph.Graph.userCounts;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.pinion.TestApi.TestUser;
import io.pinion.stack.StackTest;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The follower model's scenarios, as the follower-model article describes them.
 */
@QuarkusTest
@StackTest
class FollowModelTest {

    @Test
    void followingAUserFollowsTheirExistingAndFutureBoards() {
        TestUser a = newUser();
        TestUser b = newUser();
        String existing = createBoard(b, "existing");
        followUser(a, b.id());
        String next = createBoard(b, "created after the follow");

        assertTrue(followsUser(a.id(), b.id()));
        assertTrue(followsBoard(a.id(), existing));
        assertTrue(followsBoard(a.id(), next));
        assertEquals(List.of(a.id()), all("/v1/boards/" + next + "/followers"));
        assertEquals(1, boardFollowerCount(next));
        assertEquals(List.of(a.id()), all("/v1/users/" + b.id() + "/followers"));
        assertEquals(List.of(b.id()), all("/v1/users/" + a.id() + "/following"));
        assertEquals(1, userCounts(b.id()).getLong("followers"));
        assertEquals(1, userCounts(a.id()).getLong("following"));
        assertFalse(followsUser(b.id(), a.id()));
    }

    @Test
    void unfollowingOneBoardOfAFollowedUserExcludesOnlyThatBoard() {
        TestUser a = newUser();
        TestUser other = newUser();
        TestUser b = newUser();
        String kept = createBoard(b, "kept");
        String dropped = createBoard(b, "dropped");
        followUser(a, b.id());
        followUser(other, b.id());
        unfollowBoard(a, dropped);

        assertTrue(followsUser(a.id(), b.id()), "still follows the user");
        assertTrue(followsBoard(a.id(), kept));
        assertFalse(followsBoard(a.id(), dropped));
        assertEquals(List.of(other.id()), all("/v1/boards/" + dropped + "/followers"), "excluded from the receivers");
        assertEquals(List.of(other.id(), a.id()), all("/v1/boards/" + kept + "/followers"));
        assertEquals(1, boardFollowerCount(dropped));
        assertEquals(2, boardFollowerCount(kept));

        followBoard(a, dropped);
        assertTrue(followsBoard(a.id(), dropped), "following it again undoes the unfollow");
        assertEquals(2, boardFollowerCount(dropped));
        assertEquals(
                0, userCounts(a.id()).getLong("followedBoards"), "boards of followed users are not counted one by one");
    }

    @Test
    void followingABoardMakesAnImplicitFollowerUntilTheLastBoardIsUnfollowed() {
        TestUser a = newUser();
        TestUser c = newUser();
        String first = createBoard(c, "first");
        String second = createBoard(c, "second");
        String third = createBoard(c, "not followed");
        followBoard(a, first);
        followBoard(a, second);

        assertFalse(followsUser(a.id(), c.id()));
        assertTrue(followsUserImplicitly(a.id(), c.id()));
        assertTrue(followsBoard(a.id(), first));
        assertFalse(followsBoard(a.id(), third), "only the boards followed one by one");
        assertEquals(List.of(c.id()), all("/v1/users/" + a.id() + "/following?kind=implicit"));
        assertEquals(List.of(a.id()), all("/v1/users/" + c.id() + "/followers?kind=implicit"));
        assertEquals(List.of(second, first), all("/v1/users/" + a.id() + "/following?kind=boards"));
        assertEquals(List.of(a.id()), all("/v1/boards/" + first + "/followers"));
        assertEquals(1, userCounts(c.id()).getLong("implicitFollowers"));
        assertEquals(0, userCounts(c.id()).getLong("followers"));

        unfollowBoard(a, first);
        assertTrue(followsUserImplicitly(a.id(), c.id()), "one board is still followed");
        unfollowBoard(a, second);
        assertFalse(followsUserImplicitly(a.id(), c.id()));
        assertEquals(List.of(), all("/v1/users/" + c.id() + "/followers?kind=implicit"));
        assertEquals(List.of(), all("/v1/users/" + a.id() + "/following?kind=implicit"));
        assertEquals(0, userCounts(c.id()).getLong("implicitFollowers"));
        assertEquals(0, boardFollowerCount(first));
    }

    @Test
    void unfollowingAUserEntirelyClearsTheirBoardUnfollows() {
        TestUser a = newUser();
        TestUser b = newUser();
        String board = createBoard(b, "unfollowed then cleared");
        followUser(a, b.id());
        unfollowBoard(a, board);
        assertFalse(followsBoard(a.id(), board));

        unfollowUser(a, b.id());
        assertFalse(followsUser(a.id(), b.id()));
        assertFalse(followsBoard(a.id(), board));
        assertEquals(0, userCounts(b.id()).getLong("followers"));

        followUser(a, b.id());
        assertTrue(followsBoard(a.id(), board), "the old unfollow is gone: following again follows every board");
        assertEquals(List.of(a.id()), all("/v1/boards/" + board + "/followers"));
    }

    @Test
    void followingTheOwnerTurnsBoardFollowsIntoTheExplicitFollow() {
        TestUser a = newUser();
        TestUser c = newUser();
        String board = createBoard(c, "followed first");
        followBoard(a, board);
        followUser(a, c.id());

        assertFalse(followsUserImplicitly(a.id(), c.id()));
        assertTrue(followsBoard(a.id(), board));
        assertEquals(List.of(a.id()), all("/v1/boards/" + board + "/followers"), "counted once");
        assertEquals(1, boardFollowerCount(board));
        assertEquals(0, userCounts(a.id()).getLong("followedBoards"));
        assertEquals(0, userCounts(c.id()).getLong("implicitFollowers"));
        assertEquals(1, userCounts(c.id()).getLong("followers"));
    }

    @Test
    void followsAreIdempotent() {
        TestUser a = newUser();
        TestUser b = newUser();
        a.as().put("/v1/me/following/users/" + b.id())
                .then()
                .statusCode(200)
                .body("following", org.hamcrest.Matchers.equalTo(true))
                .body("changed", org.hamcrest.Matchers.equalTo(true));
        a.as().put("/v1/me/following/users/" + b.id()).then().statusCode(200)
                .body("changed", org.hamcrest.Matchers.equalTo(false));
        assertEquals(1, userCounts(b.id()).getLong("followers"));
        a.as().delete("/v1/me/following/users/" + b.id())
                .then()
                .statusCode(200)
                .body("changed", org.hamcrest.Matchers.equalTo(true));
        a.as().delete("/v1/me/following/users/" + b.id())
                .then()
                .statusCode(200)
                .body("changed", org.hamcrest.Matchers.equalTo(false));
        assertEquals(0, userCounts(b.id()).getLong("followers"));
    }
}
