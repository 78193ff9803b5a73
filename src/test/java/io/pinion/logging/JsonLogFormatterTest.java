package io.pinion.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.logging.Formatter;
import java.util.logging.Handler;

import org.jboss.logmanager.ExtLogRecord;
import org.jboss.logmanager.Level;
import org.jboss.logmanager.formatters.PatternFormatter;
import org.jboss.logmanager.handlers.AsyncHandler;
import org.jboss.logmanager.handlers.ConsoleHandler;
import org.jboss.logmanager.handlers.DelayedHandler;
import org.jboss.logmanager.handlers.FileHandler;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.pinion.web.RequestIds;

/**
 * The JSON log line as the console writes it with {@code pinion.log.format=json}: one object a line that any JSON
 * parser reads back, whatever the message holds, with the request's id, an ISO-8601 UTC timestamp and the stack
 * trace; and the console handler found where Quarkus keeps it. No Quarkus: the formatter and the handlers are built
 * as the start-up observer builds and searches them.
 */
class JsonLogFormatterTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aRecordOfARequestWithAnAwkwardMessageAndAnExceptionIsOneLineOfJson() throws Exception {
        String message = "pin \"42\" refused:\n\tline two \\ back\u0001slash, caf\u00e9 \u2603 </script>";
        IOException cause = new IOException("disk \"full\"");
        IllegalStateException thrown = new IllegalStateException("boom\nsecond line", cause);
        ExtLogRecord record = record(Level.ERROR, message, thrown);
        record.setMdc(Map.of(RequestIds.KEY, "checkout-7f3a.2:retry/1", "other", "x"));
        Instant at = Instant.parse("2026-05-02T09:14:03.271456Z");
        record.setInstant(at);

        String line = new JsonLogFormatter().format(record);

        assertTrue(line.endsWith("\n"), "a line: " + line);
        assertEquals(line.length() - 1, line.indexOf('\n'), "one line, the newline only at its end: " + line);
        JsonNode json = JSON.readTree(line);
        assertEquals("2026-05-02T09:14:03.271Z", json.path("timestamp").asText(), "ISO-8601 in UTC, to the ms");
        assertEquals("ERROR", json.path("level").asText());
        assertEquals("io.pinion.pins.PinService", json.path("loggerName").asText());
        assertEquals("vert.x-eventloop-thread-3", json.path("threadName").asText());
        assertEquals(message, json.path("message").asText(), "the message as written, escapes undone");
        assertEquals("checkout-7f3a.2:retry/1", json.path("requestId").asText(), "the request's id at the top");
        assertEquals("checkout-7f3a.2:retry/1", json.path("mdc").path(RequestIds.KEY).asText());
        assertEquals("x", json.path("mdc").path("other").asText(), "the rest of the logging context");
        assertEquals(IllegalStateException.class.getName(), json.path("exceptionType").asText());
        String trace = json.path("stackTrace").asText();
        assertTrue(trace.startsWith("java.lang.IllegalStateException: boom\nsecond line\n\tat "), trace);
        assertTrue(trace.contains("\nCaused by: java.io.IOException: disk \"full\"\n"), trace);
        assertTrue(trace.contains(JsonLogFormatterTest.class.getName()), "the frames: " + trace);
        assertFalse(json.has("exception"), "no frame-by-frame object besides the trace");
    }

    @Test
    void aRecordOutsideARequestHasNoRequestIdAndNoException() throws Exception {
        ExtLogRecord record = record(Level.INFO, "started", null);
        record.setMdc(Map.of());

        JsonNode json = JSON.readTree(new JsonLogFormatter().format(record));

        assertEquals("INFO", json.path("level").asText());
        assertEquals("started", json.path("message").asText());
        assertTrue(json.path("timestamp").asText().matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z"),
                json.toString());
        assertFalse(json.has("requestId"), json.toString());
        assertFalse(json.has("exceptionType") || json.has("stackTrace") || json.has("exception"), json.toString());
    }

    @Test
    void theFormatterReachesTheConsoleHandlerInsideTheHandlersThatHoldItAndNoOtherHandler() throws Exception {
        Formatter text = new PatternFormatter("%s%n");
        ConsoleHandler console = new ConsoleHandler(text);
        AsyncHandler async = new AsyncHandler();
        async.addHandler(console);
        FileHandler file = new FileHandler();
        file.setFormatter(text);
        DelayedHandler delayed = new DelayedHandler();
        delayed.setHandlers(new Handler[] {async, file});
        Formatter json = new JsonLogFormatter();

        assertEquals(List.of(console), ConsoleLogFormat.consoleHandlers(new Handler[] {delayed}));
        assertEquals(1, ConsoleLogFormat.use(new Handler[] {delayed}, json));
        assertSame(json, console.getFormatter());
        assertSame(text, file.getFormatter(), "a file handler keeps its format");
        assertEquals(0, ConsoleLogFormat.use(new Handler[] {file}, json), "none found: none changed");
    }

    private static ExtLogRecord record(java.util.logging.Level level, String message, Throwable thrown) {
        ExtLogRecord record = new ExtLogRecord(level, message, ExtLogRecord.FormatStyle.NO_FORMAT,
                JsonLogFormatterTest.class.getName());
        record.setLoggerName("io.pinion.pins.PinService");
        record.setThreadName("vert.x-eventloop-thread-3");
        record.setThrown(thrown);
        return record;
    }
}
