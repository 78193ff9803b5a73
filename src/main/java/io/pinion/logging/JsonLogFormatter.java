package io.pinion.logging;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.util.Map;

import org.jboss.logmanager.ExtLogRecord;
import org.jboss.logmanager.formatters.StructuredFormatter;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteFeature;

import io.pinion.web.RequestIds;

/**
 * The console's JSON lines ({@code pinion.log.format=json}): JBoss LogManager's {@link StructuredFormatter}, the base
 * of its own JSON and XML formatters, picks a record's fields and names them ({@code timestamp}, {@code level},
 * {@code loggerName}, {@code message}, {@code threadName}, {@code mdc}, …); Jackson writes them, one object and a
 * newline a record, with quotes, newlines and control characters escaped. With
 * <ul>
 * <li>the timestamp in ISO-8601, in UTC, to the millisecond ({@code 2026-05-02T09:14:03.271Z});</li>
 * <li>{@code requestId}: the request's id from the logging context ({@link RequestIds}), also at the top level so
 * that a log search needs no nested field; absent outside a request;</li>
 * <li>a record's exception as {@code exceptionType} (its class) and {@code stackTrace}, the text
 * {@link Throwable#printStackTrace()} writes (causes and suppressed ones included), in place of the library's
 * outputs: its frame-by-frame object is long to read, and its formatted trace starts with {@code ": "} (the
 * separator of the text format's {@code %e}).</li>
 * </ul>
 * Not the library's {@code JsonFormatter}: it writes with Jakarta JSON Processing, which the packaged application
 * keeps in its own class loader, out of reach of JBoss LogManager's (a {@code NoClassDefFoundError} at the start).
 */
public final class JsonLogFormatter extends StructuredFormatter {

    /** The top-level field of the request's id. */
    static final String REQUEST_ID = "requestId";
    /** ISO-8601 with milliseconds; {@code X} writes {@code Z} in UTC. */
    static final String TIMESTAMP_PATTERN = "yyyy-MM-dd'T'HH:mm:ss.SSSX";

    private static final JsonFactory JSON = JsonFactory.builder()
            .disable(StreamWriteFeature.AUTO_CLOSE_TARGET)
            .build();

    /** The formatter as the console gets it. */
    public JsonLogFormatter() {
        setZoneId("UTC");
        setDateFormat(TIMESTAMP_PATTERN);
    }

    @Override
    protected Generator createGenerator(Writer writer) throws IOException {
        return new JacksonGenerator(JSON.createGenerator(writer));
    }

    @Override
    protected boolean isDetailedExceptionOutputType() {
        return false;
    }

    @Override
    protected boolean isFormattedExceptionOutputType() {
        return false;
    }

    @Override
    protected void after(Generator generator, ExtLogRecord record) throws Exception {
        String requestId = record.getMdc(RequestIds.KEY);
        if (requestId != null) {
            generator.add(REQUEST_ID, requestId);
        }
        Throwable thrown = record.getThrown();
        if (thrown != null) {
            generator.add(getKey(Key.EXCEPTION_TYPE), thrown.getClass().getName());
            generator.add(getKey(Key.STACK_TRACE), stackTrace(thrown));
        }
    }

    private static String stackTrace(Throwable thrown) {
        StringWriter text = new StringWriter();
        try (PrintWriter out = new PrintWriter(text)) {
            thrown.printStackTrace(out);
        }
        return text.toString();
    }

    /** The structure as JSON: objects and arrays (a null key: an element of an array), strings and numbers. */
    private static final class JacksonGenerator implements Generator {

        private final JsonGenerator json;

        JacksonGenerator(JsonGenerator json) {
            this.json = json;
        }

        @Override
        public Generator begin() throws IOException {
            json.writeStartObject();
            return this;
        }

        @Override
        public Generator add(String key, int value) throws IOException {
            json.writeNumberField(key, value);
            return this;
        }

        @Override
        public Generator add(String key, long value) throws IOException {
            json.writeNumberField(key, value);
            return this;
        }

        @Override
        public Generator add(String key, String value) throws IOException {
            json.writeFieldName(key);
            json.writeString(value);
            return this;
        }

        @Override
        public Generator add(String key, Map<String, ?> value) throws IOException {
            json.writeObjectFieldStart(key);
            if (value != null) {
                for (Map.Entry<String, ?> entry : value.entrySet()) {
                    json.writeFieldName(entry.getKey());
                    Object item = entry.getValue();
                    json.writeString(item == null ? null : item.toString());
                }
            }
            json.writeEndObject();
            return this;
        }

        @Override
        public Generator startObject(String key) throws IOException {
            if (key != null) {
                json.writeFieldName(key);
            }
            json.writeStartObject();
            return this;
        }

        @Override
        public Generator endObject() throws IOException {
            json.writeEndObject();
            return this;
        }

        @Override
        public Generator startArray(String key) throws IOException {
            if (key != null) {
                json.writeFieldName(key);
            }
            json.writeStartArray();
            return this;
        }

        @Override
        public Generator endArray() throws IOException {
            json.writeEndArray();
            return this;
        }

        @Override
        public Generator end() throws IOException {
            json.writeEndObject();
            json.close();
            return this;
        }
    }
}
