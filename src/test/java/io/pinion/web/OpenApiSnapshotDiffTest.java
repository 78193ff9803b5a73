package io.pinion.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * How {@link OpenApiSnapshotTest} compares the snapshot with the served document, on small documents: layout and
 * member order do not count, everything else is named by its JSON pointer. Also checks the committed snapshot is
 * written the way a refresh writes it, so that refreshing an unchanged contract changes no byte.
 */
class OpenApiSnapshotDiffTest {

    @Test
    void theSameDocumentInAnotherLayoutAndMemberOrderHasNoDifferences() {
        JsonNode a = OpenApiSnapshot.parse("{\"openapi\":\"3.1.0\","
                + "\"paths\":{\"/v1/me\":{\"get\":{\"tags\":[\"users\"],\"operationId\":\"getMe\"}}}}");
        JsonNode b = OpenApiSnapshot.parse("{\n  \"paths\" : {\"/v1/me\" : {\"get\" : {\"operationId\" : \"getMe\","
                + " \"tags\" : [ \"users\" ]}}},\n  \"openapi\" : \"3.1.0\"\n}");
        assertEquals(List.of(), OpenApiSnapshot.differences(a, b));
    }

    @Test
    void eachDifferenceIsNamedByItsPointer() {
        JsonNode snapshot = OpenApiSnapshot.parse("{\"paths\":{\"/v1/boards\":{\"post\":{"
                + "\"operationId\":\"createBoard\","
                + "\"responses\":{\"201\":{}}}},\"/v1/pins/{id}\":{\"get\":{\"tags\":[\"pins\"]}}}}");
        JsonNode served = OpenApiSnapshot.parse("{\"paths\":{\"/v1/boards\":{\"post\":{\"operationId\":\"newBoard\","
                + "\"responses\":{\"200\":{}}}},\"/v1/pins/{id}\":{\"get\":{\"tags\":[\"pins\",\"feed\"]}}}}");
        assertEquals(List.of(
                "/paths/~1v1~1boards/post/operationId: \"createBoard\" in the snapshot, \"newBoard\" served",
                "/paths/~1v1~1boards/post/responses/200: only served",
                "/paths/~1v1~1boards/post/responses/201: only in the snapshot",
                "/paths/~1v1~1pins~1{id}/get/tags: [\"pins\"] in the snapshot, [\"pins\",\"feed\"] served"),
                OpenApiSnapshot.differences(snapshot, served));
    }

    @Test
    void aWrittenDocumentReadsBackTheSame(@TempDir Path dir) throws Exception {
        JsonNode document = OpenApiSnapshot.parse("{\"info\":{\"title\":\"Pinion API\",\"description\":\"… ids\"},"
                + "\"x\":[1,2.5,null,true]}");
        Path file = dir.resolve("openapi/pinion.json");
        OpenApiSnapshot.write(document, file);
        assertEquals(List.of(), OpenApiSnapshot.differences(document, OpenApiSnapshot.read(file)));
        assertTrue(Files.readString(file).endsWith("}\n"));
    }

    @Test
    void theCommittedSnapshotIsWrittenAsARefreshWritesIt(@TempDir Path dir) throws Exception {
        Path committed = Path.of(OpenApiSnapshot.FILE);
        Path rewritten = dir.resolve("pinion.json");
        OpenApiSnapshot.write(OpenApiSnapshot.read(committed), rewritten);
        assertEquals(Files.readString(committed), Files.readString(rewritten),
                "rewrite " + OpenApiSnapshot.FILE + " with OpenApiSnapshot.write (a refresh does)");
    }
}
