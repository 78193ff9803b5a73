package io.pinion.stack;

import static io.restassured.RestAssured.given;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.restassured.http.ContentType;

/**
 * Runs the project's {@code bin/admin} from tests, as an operator on the machine would: the only way to make the
 * first admin of a packaged service.
 */
public final class Operator {

    /** The integration tests' admin account, granted once for all of them (the role is stored with the account). */
    public static final String ADMIN = "it_admin";

    private Operator() {
    }

    /**
     * A session token of {@link #ADMIN} on the service at {@code base} ("" for RestAssured's default): signed up if
     * new, granted the admin role with {@code bin/admin} unless an earlier test already did, logged in again.
     */
    public static String grantedAdmin(String base) {
        String token = session(base, ADMIN);
        if (given().auth().oauth2(token).get(base + "/v1/admin/topology").statusCode() == 200) {
            return token;
        }
        admin("grant", ADMIN, "admin");
        return session(base, ADMIN);
    }

    /** Signs the user up on the service at {@code base} (if new) and returns a session token. */
    public static String session(String base, String username) {
        String password = "password-" + username;
        given().contentType(ContentType.JSON).body(Map.of("username", username, "password", password))
                .post(base + "/v1/users");
        return io.pinion.Json.text(given().contentType(ContentType.JSON)
                .body(Map.of("username", username, "password", password))
                .post(base + "/v1/sessions").then().statusCode(200).extract().response(), "token");
    }

    /** {@code bin/admin ARGS…}; fails with its output when it exits non-zero. */
    public static String admin(String... args) {
        Path root = LocalStack.repoRoot();
        List<String> command = new ArrayList<>(List.of("bash", root.resolve("bin/admin").toString()));
        command.addAll(List.of(args));
        try {
            Path output = Files.createTempFile("pinion-admin", ".log");
            Process process = new ProcessBuilder(command).directory(root.toFile()).redirectErrorStream(true)
                    .redirectOutput(output.toFile()).start();
            if (!process.waitFor(5, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new IllegalStateException("bin/admin did not finish in 5 minutes");
            }
            String text = Files.readString(output, StandardCharsets.UTF_8);
            Files.deleteIfExists(output);
            if (process.exitValue() != 0) {
                throw new IllegalStateException(
                        "bin/admin " + String.join(" ", args) + " exited " + process.exitValue() + ":\n" + text);
            }
            return text;
        } catch (IOException e) {
            throw new IllegalStateException("cannot run bin/admin", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running bin/admin", e);
        }
    }
}
