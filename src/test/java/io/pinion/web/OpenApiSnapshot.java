package io.pinion.web;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

/**
 * The copy of the service's OpenAPI document that the test client is generated from
 * ({@code src/test/resources/openapi/pinion.json}, read by openapi-generator-maven-plugin in
 * {@code generate-test-sources}), and how it is compared with the document the service serves: as JSON trees (member
 * order and layout do not count, array order does), naming each place where they differ by its JSON pointer.
 */
final class OpenApiSnapshot {

    /** Where the snapshot lives, relative to the project's directory. */
    static final String FILE = "src/test/resources/openapi/pinion.json";

    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private OpenApiSnapshot() {
    }

    static JsonNode parse(String json) {
        try {
            return MAPPER.readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException("not JSON", e);
        }
    }

    static JsonNode read(Path file) {
        try {
            return parse(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    /** Writes the document the way the snapshot is kept: indented by Jackson, members in the served order. */
    static void write(JsonNode document, Path file) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.writeString(file, MAPPER.writeValueAsString(document) + "\n", StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    /**
     * Every place where {@code served} differs from {@code snapshot}, as {@code pointer: what}, in document order;
     * empty when they are the same document.
     */
    static List<String> differences(JsonNode snapshot, JsonNode served) {
        List<String> found = new ArrayList<>();
        compare("", snapshot, served, found);
        return found;
    }

    private static void compare(String pointer, JsonNode snapshot, JsonNode served, List<String> found) {
        if (snapshot.equals(served)) {
            return;
        }
        if (snapshot.isObject() && served.isObject()) {
            TreeSet<String> names = new TreeSet<>();
            snapshot.fieldNames().forEachRemaining(names::add);
            served.fieldNames().forEachRemaining(names::add);
            for (String name : names) {
                String at = pointer + "/" + name.replace("~", "~0").replace("/", "~1");
                if (!snapshot.has(name)) {
                    found.add(at + ": only served");
                } else if (!served.has(name)) {
                    found.add(at + ": only in the snapshot");
                } else {
                    compare(at, snapshot.get(name), served.get(name), found);
                }
            }
        } else if (snapshot.isArray() && served.isArray() && snapshot.size() == served.size()) {
            for (int i = 0; i < snapshot.size(); i++) {
                compare(pointer + "/" + i, snapshot.get(i), served.get(i), found);
            }
        } else {
            found.add((pointer.isEmpty() ? "/" : pointer) + ": " + brief(snapshot) + " in the snapshot, "
                    + brief(served) + " served");
        }
    }

    private static String brief(JsonNode node) {
        String text = node.toString();
        return text.length() <= 80 ? text : text.substring(0, 77) + "...";
    }
}
