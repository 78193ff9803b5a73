package io.pinion.web;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.pinion.stack.LocalStack;
import io.pinion.stack.StackTest;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The client that {@link GeneratedClientTest} drives is generated at build time from
 * {@value OpenApiSnapshot#FILE}: this test holds that file to what {@code /q/openapi} serves, so the generated client
 * is the served contract's. When the contract changes, it fails and names the places that differ; refresh the
 * snapshot with {@code ./mvnw test -Dtest=OpenApiSnapshotTest -Dpinion.openapi.refresh=true} (it then writes the
 * served document over the snapshot instead of failing) and commit it with the change.
 */
@QuarkusTest
@StackTest
class OpenApiSnapshotTest {

    /** Where a failing run leaves the served document, to look at or to copy over the snapshot. */
    private static final String SERVED = "target/openapi/served.json";

    @Test
    void theClientIsGeneratedFromTheServedDocument() {
        JsonNode served = OpenApiSnapshot.parse(
                given().get("/q/openapi?format=json").then().statusCode(200).extract().asString());
        Path root = LocalStack.repoRoot();
        Path snapshot = root.resolve(OpenApiSnapshot.FILE);
        if (Boolean.getBoolean("pinion.openapi.refresh")) {
            OpenApiSnapshot.write(served, snapshot);
            System.out.printf("wrote the served OpenAPI document to %s: rebuild to regenerate the client%n", snapshot);
            return;
        }
        List<String> differences = OpenApiSnapshot.differences(OpenApiSnapshot.read(snapshot), served);
        if (!differences.isEmpty()) {
            OpenApiSnapshot.write(served, root.resolve(SERVED));
        }
        assertEquals(List.of(), differences.stream().limit(40).toList(), () -> "/q/openapi differs from "
                + OpenApiSnapshot.FILE + ", which the test client is generated from, in " + differences.size()
                + " places (the served document is in " + SERVED + "). If the change is meant, refresh the "
                + "snapshot: ./mvnw test -Dtest=OpenApiSnapshotTest -Dpinion.openapi.refresh=true (or cp " + SERVED
                + " " + OpenApiSnapshot.FILE + "), rebuild, and commit it with the change");
    }
}
