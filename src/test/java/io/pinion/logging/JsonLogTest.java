package io.pinion.logging;

import static io.pinion.TestApi.admin;
import static io.pinion.TestApi.newUser;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import org.jboss.logmanager.ExtLogRecord;
import org.jboss.logmanager.handlers.ConsoleHandler;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.pinion.TestApi.TestUser;
import io.pinion.stack.StackTest;
import io.pinion.web.RequestIds;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/**
 * With {@code pinion.log.format=json} the started service's console handler writes JSON lines, and the line of a
 * request names the id its answer's {@code X-Request-Id} names. The line is the one the console handler's own
 * formatter makes of the request's record, on the thread that logged it (the console's stream itself is the
 * process's standard output, which a test in the same process cannot read back).
 */
@QuarkusTest
@StackTest
@TestProfile(JsonLogTest.Json.class)
class JsonLogTest {

    /** JSON on; colours off, as in a container (with colours, dev and test runs wrap the console handler). */
    public static class Json implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("pinion.log.format", "json", "quarkus.console.color", "false");
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void theConsoleWritesJsonAndARequestsLineNamesTheIdOfItsAnswer() throws Exception {
        List<ConsoleHandler> consoles = ConsoleLogFormat.consoleHandlers(Logger.getLogger("").getHandlers());
        assertFalse(consoles.isEmpty(), "the root logger's console handler");
        Formatter formatter = consoles.get(0).getFormatter();
        for (ConsoleHandler console : consoles) {
            assertInstanceOf(JsonLogFormatter.class, console.getFormatter(), "every console handler writes JSON");
        }

        TestUser admin = admin();
        TestUser user = newUser();
        List<String> lines = new CopyOnWriteArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                if (record instanceof ExtLogRecord ext && ext.getFormattedMessage().contains(user.id())) {
                    lines.add(formatter.format(ext));
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger grants = Logger.getLogger("io.pinion.users.UserGrants");
        grants.addHandler(capture);
        try {
            String id = admin.as().put("/v1/admin/users/" + user.id() + "/roles/worker")
                    .then().statusCode(200).extract().header(RequestIds.HEADER);
            assertTrue(id != null && !id.isEmpty(), "the answer names its request");
            assertEquals(1, lines.size(), "the grant's line: " + lines);
            String line = lines.get(0);
            assertEquals(line.length() - 1, line.indexOf('\n'), "one line: " + line);
            JsonNode json = JSON.readTree(line);
            assertEquals(id, json.path("requestId").asText(), line);
            assertEquals(id, json.path("mdc").path(RequestIds.KEY).asText(), line);
            assertEquals("io.pinion.users.UserGrants", json.path("loggerName").asText(), line);
            assertEquals("INFO", json.path("level").asText(), line);
            assertTrue(json.path("message").asText().contains(user.id()), line);
            assertTrue(json.path("timestamp").asText().matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z"),
                    line);
        } finally {
            grants.removeHandler(capture);
        }
    }
}
