package io.pinion;

import java.io.IOException;
import java.io.UncheckedIOException;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.restassured.response.Response;

/**
 * Reads answers with Jackson. RestAssured's {@code jsonPath()} and {@code extract().path(…)} evaluate each path as a
 * Groovy expression, which costs more CPU than the request itself: the helpers that run thousands of times use this.
 */
public final class Json {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private Json() {
    }

    /** The answer's body as a tree. */
    public static JsonNode of(Response response) {
        try {
            return MAPPER.readTree(response.asString());
        } catch (IOException e) {
            throw new UncheckedIOException("not JSON: " + response.asString(), e);
        }
    }

    /** A text field of the answer's body ({@code null} when absent or null). */
    public static String text(Response response, String field) {
        JsonNode value = of(response).path(field);
        return value.isMissingNode() || value.isNull() ? null : value.asText();
    }
}
