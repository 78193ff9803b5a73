package io.pinion.web;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.pinion.Json;
import io.pinion.stack.StackTest;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The OpenAPI document is one a client can be generated from: the security scheme its operations name is defined,
 * every operation that needs a token says so and has an operationId of its own, every error response has the one
 * error shape, creations answer 201, and list parameters say what they take. {@link GeneratedClientTest} drives a
 * client generated from it.
 */
@QuarkusTest
@StackTest
class OpenApiContractTest {

    private JsonNode document;

    @BeforeEach
    void readTheDocument() {
        document = Json.of(given().get("/q/openapi?format=json").then().statusCode(200).extract().response());
    }

    @Test
    void theBearerSchemeIsDefinedAndEveryOperationNamesOnlyDefinedSchemes() {
        JsonNode bearer = document.path("components").path("securitySchemes").path("bearer");
        assertEquals("http", bearer.path("type").asText(), bearer.toString());
        assertEquals("bearer", bearer.path("scheme").asText().toLowerCase());
        List<String> undefined = new ArrayList<>();
        operations((where, operation) -> operation.path("security").forEach(requirement -> requirement.fieldNames()
                .forEachRemaining(name -> {
                    if (document.path("components").path("securitySchemes").path(name).isMissingNode()) {
                        undefined.add(where + " names " + name);
                    }
                })));
        assertEquals(List.of(), undefined);
    }

    @Test
    void operationsThatNeedATokenSaySoAndAnswerErrorsInTheOneShape() {
        JsonNode grant = operation("/v1/admin/users/{id}/roles/{role}", "put");
        assertTrue(grant.path("security").toString().contains("bearer"), grant.path("security").toString());
        JsonNode home = operation("/v1/me/home-feed", "get");
        assertTrue(home.path("security").toString().contains("bearer"), "the home feed needs a token");
        for (String status : List.of("400", "401", "403", "404", "409", "429", "503")) {
            assertEquals("#/components/schemas/Error", grant.path("responses").path(status).path("content")
                    .path("application/json").path("schema").path("$ref").asText(), "PUT grant " + status);
        }
        JsonNode error = document.path("components").path("schemas").path("Error").path("properties");
        assertTrue(error.has("error") && error.has("message") && error.has("requestId"), error.toString());
        List<String> without503 = new ArrayList<>();
        operations((where, operation) -> {
            if (!operation.path("responses").has("503")) {
                without503.add(where);
            }
        });
        assertEquals(List.of(), without503, "every operation may meet a backend outage");
    }

    @Test
    void everyOperationHasAnIdOfItsOwnAndEveryErrorTheOneShape() {
        Map<String, List<String>> byId = new java.util.TreeMap<>();
        List<String> shapeless = new ArrayList<>();
        operations((where, operation) -> {
            byId.computeIfAbsent(operation.path("operationId").asText(""), id -> new ArrayList<>()).add(where);
            operation.path("responses").fields().forEachRemaining(response -> {
                String ref = response.getValue().path("content").path("application/json").path("schema")
                        .path("$ref").asText();
                if (response.getKey().matches("[45].*") && !"#/components/schemas/Error".equals(ref)) {
                    shapeless.add(where + " " + response.getKey());
                }
            });
        });
        List<String> unnamedOrShared = new ArrayList<>();
        byId.forEach((id, where) -> {
            if (id.isEmpty() || where.size() > 1) {
                unnamedOrShared.add("'" + id + "': " + where);
            }
        });
        assertEquals(List.of(), unnamedOrShared, "operationIds name the generated client's methods");
        assertEquals(List.of(), shapeless, "error responses without the Error schema");
        assertEquals("signUp", operation("/v1/users", "post").path("operationId").asText());
        for (String[] creation : new String[][] {{"/v1/users", "User"}, {"/v1/boards", "Board"}, {"/v1/pins", "Pin"}}) {
            JsonNode responses = operation(creation[0], "post").path("responses");
            assertTrue(!responses.has("200"), "POST " + creation[0] + " answers 201, not 200");
            assertEquals("#/components/schemas/" + creation[1], responses.path("201").path("content")
                    .path("application/json").path("schema").path("$ref").asText(), "POST " + creation[0]);
        }
    }

    @Test
    void listParametersSayWhatTheyTake() {
        JsonNode boardPins = operation("/v1/boards/{id}/pins", "get");
        Map<String, JsonNode> parameters = new java.util.HashMap<>();
        boardPins.path("parameters").forEach(p -> parameters.put(p.path("name").asText(), p));
        assertEquals("integer", parameters.get("limit").path("schema").path("type").asText());
        assertEquals(1, parameters.get("limit").path("schema").path("minimum").asInt());
        assertTrue(parameters.get("limit").path("description").asText().contains("25"));
        assertTrue(parameters.get("cursor").path("description").asText().contains("nextCursor"));
    }

    private JsonNode operation(String path, String method) {
        JsonNode found = document.path("paths").path(path).path(method);
        assertTrue(!found.isMissingNode(), "no " + method + " " + path);
        return found;
    }

    private void operations(java.util.function.BiConsumer<String, JsonNode> each) {
        document.path("paths").fields().forEachRemaining(path -> path.getValue().fields().forEachRemaining(op -> {
            if (op.getValue().has("responses")) {
                each.accept(op.getKey() + " " + path.getKey(), op.getValue());
            }
        }));
    }
}
