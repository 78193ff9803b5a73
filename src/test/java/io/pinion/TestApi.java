package io.pinion;

import static io.restassured.RestAssured.given;

import java.util.Map;
import java.util.UUID;

import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;

/**
 * Small helpers that drive the public API the way a client does: sign up, log in, create boards and pins.
 */
public final class TestApi {

    /** A signed-up user with a token. */
    public record TestUser(String id, String username, String token) {

        public RequestSpecification as() {
            return given().contentType(ContentType.JSON).header("Authorization", "Bearer " + token);
        }
    }

    private TestApi() {
    }

    public static TestUser newUser() {
        String username = "u_" + UUID.randomUUID().toString().replace("-", "").substring(0, 20);
        return signUpAndLogin(username, "password-" + username);
    }

    /** The admin configured for tests ({@code pinion.auth.admins}); created on first use. */
    public static TestUser admin() {
        given().contentType(ContentType.JSON)
                .body(Map.of("username", "admin_test", "password", "admin-password"))
                .post("/v1/users");
        return login("admin_test", "admin-password");
    }

    /** The job worker configured for tests ({@code pinion.auth.workers}); created on first use. */
    public static TestUser worker() {
        given().contentType(ContentType.JSON)
                .body(Map.of("username", "worker_test", "password", "worker-password"))
                .post("/v1/users");
        return login("worker_test", "worker-password");
    }

    public static TestUser signUpAndLogin(String username, String password) {
        given().contentType(ContentType.JSON)
                .body(Map.of("username", username, "password", password, "displayName", "Test " + username))
                .post("/v1/users")
                .then().statusCode(201);
        return login(username, password);
    }

    public static TestUser login(String username, String password) {
        var session = given().contentType(ContentType.JSON)
                .body(Map.of("username", username, "password", password))
                .post("/v1/sessions")
                .then().statusCode(200)
                .extract().jsonPath();
        return new TestUser(session.getString("userId"), username, session.getString("token"));
    }

    public static String createBoard(TestUser user, String name) {
        return user.as().body(Map.of("name", name, "description", "about " + name))
                .post("/v1/boards")
                .then().statusCode(201)
                .extract().path("id");
    }

    public static String createPin(TestUser user, String boardId, String description) {
        return user.as().body(Map.of("boardId", boardId, "description", description,
                        "link", "https://example.com/" + UUID.randomUUID(),
                        "imageUrl", "https://img.example.com/" + UUID.randomUUID() + ".jpg",
                        "interests", java.util.List.of("Travel", "food")))
                .post("/v1/pins")
                .then().statusCode(201)
                .extract().path("id");
    }

    /** The shard part of an id. */
    public static int shardOf(String id) {
        return (int) (Long.parseLong(id) >>> 46);
    }
}
