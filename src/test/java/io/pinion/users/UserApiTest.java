package io.pinion.users;

import static io.pinion.TestApi.newUser;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.notNullValue;

import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.pinion.TestApi.TestUser;
import io.pinion.TestApi;
import io.pinion.stack.StackTest;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.smallrye.jwt.build.Jwt;

@QuarkusTest
@StackTest
class UserApiTest {

    @Test
    void signingUpReturnsTheUserWithAStringIdAndZeroCounts() {
        String username = "new_" + UUID.randomUUID().toString().substring(0, 8);
        given().contentType(ContentType.JSON)
                .body(Map.of("username", username, "password", "long enough", "displayName", "New User"))
                .post("/v1/users")
                .then().statusCode(201)
                .body("id", matchesPattern("[0-9]+"))
                .body("username", equalTo(username))
                .body("displayName", equalTo("New User"))
                .body("counts.boards", equalTo(0))
                .body("counts.pins", equalTo(0))
                .body("counts.likes", equalTo(0))
                .body("$", org.hamcrest.Matchers.not(org.hamcrest.Matchers.hasKey("passwordHash")));
    }

    @Test
    void aUsernameIsUniqueAcrossAllShards() {
        TestUser first = newUser();
        given().contentType(ContentType.JSON)
                .body(Map.of("username", first.username(), "password", "another password"))
                .post("/v1/users")
                .then().statusCode(409)
                .body("error", equalTo("username_taken"));
    }

    @Test
    void badUsernamesAndShortPasswordsAreRejected() {
        for (String bad : new String[] { "ab", "UPPER", "has space", "x".repeat(31), "dash-name" }) {
            given().contentType(ContentType.JSON)
                    .body(Map.of("username", bad, "password", "long enough"))
                    .post("/v1/users")
                    .then().statusCode(400)
                    .body("error", equalTo("validation_failed"));
        }
        given().contentType(ContentType.JSON)
                .body(Map.of("username", "short_pw_user", "password", "1234567"))
                .post("/v1/users")
                .then().statusCode(400)
                .body("error", equalTo("validation_failed"));
    }

    @Test
    void loggingInGivesATokenThatSpeaksForTheUser() {
        TestUser user = newUser();
        user.as().get("/v1/me")
                .then().statusCode(200)
                .body("id", equalTo(user.id()))
                .body("username", equalTo(user.username()));
    }

    @Test
    void aWrongPasswordOrUnknownUserIsRejectedTheSameWay() {
        TestUser user = newUser();
        given().contentType(ContentType.JSON)
                .body(Map.of("username", user.username(), "password", "not the password"))
                .post("/v1/sessions")
                .then().statusCode(401)
                .body("error", equalTo("invalid_credentials"));
        given().contentType(ContentType.JSON)
                .body(Map.of(
                        "username", "nobody_" + UUID.randomUUID().toString().substring(0, 8), "password", "whatever1"))
                .post("/v1/sessions")
                .then()
                .statusCode(401)
                .body("error", equalTo("invalid_credentials"));
    }

    @Test
    void missingGarbageExpiredAndForeignTokensAre401() {
        TestUser user = newUser();
        given().get("/v1/me").then().statusCode(401).body("error", equalTo("unauthorized"));
        given().header("Authorization", "Bearer not.a.token").get("/v1/me")
                .then().statusCode(401).body("error", equalTo("unauthorized"));
        String expired = Jwt.issuer("pinion").subject(user.id()).groups(Set.of("user"))
                .issuedAt(Instant.now().minusSeconds(7200)).expiresAt(Instant.now().minusSeconds(3600)).sign();
        given().header("Authorization", "Bearer " + expired).get("/v1/me")
                .then().statusCode(401).body("error", equalTo("unauthorized"));
        String otherIssuer = Jwt.issuer("someone-else").subject(user.id()).groups(Set.of("user")).sign();
        given().header("Authorization", "Bearer " + otherIssuer).get("/v1/me")
                .then().statusCode(401).body("error", equalTo("unauthorized"));
    }

    @Test
    void aProfileShowsExactCounts() {
        TestUser user = newUser();
        String board = TestApi.createBoard(user, "counted");
        String pin = TestApi.createPin(user, board, "one");
        TestApi.createPin(user, board, "two");
        user.as().put("/v1/pins/" + pin + "/like").then().statusCode(200);
        given().get("/v1/users/" + user.id())
                .then().statusCode(200)
                .body("counts.boards", equalTo(1))
                .body("counts.pins", equalTo(2))
                .body("counts.likes", equalTo(1))
                .body("createdAt", notNullValue());
    }

    @Test
    void userIdsOfTheWrongTypeOrOnUnknownShardsAreClientErrors() {
        TestUser user = newUser();
        String board = TestApi.createBoard(user, "not a user");
        given().get("/v1/users/" + board).then().statusCode(400).body("error", equalTo("wrong_id_type"));
        long onShard64 = (64L << 46) | (3L << 36) | 1;
        given().get("/v1/users/" + onShard64).then().statusCode(404).body("error", equalTo("user_not_found"));
        given().get("/v1/users/12abc").then().statusCode(400).body("error", equalTo("invalid_id"));
        given().get("/v1/users/-5").then().statusCode(400).body("error", equalTo("invalid_id"));
        long reserved = (1L << 62) | (3L << 36) | 1;
        given().get("/v1/users/" + reserved).then().statusCode(400).body("error", equalTo("invalid_id"));
        long missing = (1L << 46) | (3L << 36) | 68_000_000_000L;
        given().get("/v1/users/" + missing).then().statusCode(404).body("error", equalTo("user_not_found"));
    }
}
