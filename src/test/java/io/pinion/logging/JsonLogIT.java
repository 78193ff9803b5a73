package io.pinion.logging;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.pinion.Json;
import io.pinion.Wait;
import io.pinion.stack.LocalStack;
import io.pinion.stack.PackagedService;
import io.pinion.web.RequestIds;

/**
 * The packaged service, what the container images run, with {@code pinion.log.format=json}: its standard output is
 * JSON lines from the start event on, and a request's line names the id of its answer's {@code X-Request-Id}. A
 * process of its own (failsafe, after {@code package}): in the packaged application JBoss LogManager is loaded apart
 * from the application's libraries, which a {@code @QuarkusTest} does not reproduce.
 */
class JsonLogIT {

    private static final String LOG = "json-log-it.log";
    private static final PackagedService SERVICE = new PackagedService(18211, LOG, "-Dpinion.log.format=json");
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void theServiceLogsJsonLinesAndARequestsLineNamesTheIdOfItsAnswer() throws Exception {
        LocalStack.run("up");
        SERVICE.start();
        try {
            String admin = SERVICE.admin();
            String token = SERVICE.token("json_log_" + UUID.randomUUID().toString().substring(0, 8));
            String user = Json.text(given().auth().oauth2(token).get(SERVICE.base() + "/v1/me")
                    .then().statusCode(200).extract().response(), "id");
            String id = given().auth().oauth2(admin).put(SERVICE.base() + "/v1/admin/users/" + user + "/roles/worker")
                    .then().statusCode(200).extract().header(RequestIds.HEADER);

            Wait.within(10_000, () -> grantLine(user) != null, "the grant's log line");
            JsonNode line = grantLine(user);
            assertEquals(id, line.path("requestId").asText(), line.toString());
            assertEquals(id, line.path("mdc").path(RequestIds.KEY).asText(), line.toString());
            assertEquals("INFO", line.path("level").asText(), line.toString());
            assertTrue(line.path("timestamp").asText().matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z"),
                    line.toString());
            assertTrue(jsonLines().stream().anyMatch(json -> json.path("message").asText().contains(" started in ")),
                    "Quarkus's started line is JSON too");
        } finally {
            SERVICE.kill();
        }
    }

    /** The line of the grant to {@code user}, or null while there is none. */
    private static JsonNode grantLine(String user) {
        return jsonLines().stream()
                .filter(json -> json.path("loggerName").asText().equals("io.pinion.users.UserGrants")
                        && json.path("message").asText().contains(user))
                .findFirst().orElse(null);
    }

    /**
     * Every line of the log that starts an object, read as JSON: each must be a whole JSON object, but the last one,
     * which the service may be writing.
     */
    private static List<JsonNode> jsonLines() {
        Path log = LocalStack.repoRoot().resolve("target").resolve(LOG);
        List<String> lines;
        try {
            // decoded leniently: the last line may end within a character
            lines = new String(Files.readAllBytes(log), StandardCharsets.UTF_8).lines().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("the service's log " + log, e);
        }
        List<JsonNode> objects = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (!line.startsWith("{")) {
                continue;
            }
            try {
                objects.add(JSON.readTree(line));
            } catch (IOException e) {
                if (i < lines.size() - 1) {
                    throw new AssertionError("not a JSON object: " + line, e);
                }
            }
        }
        return objects;
    }
}
