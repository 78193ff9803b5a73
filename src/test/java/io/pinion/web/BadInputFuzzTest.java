package io.pinion.web;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

import io.pinion.TestApi;
import io.pinion.TestApi.TestUser;
import io.pinion.Wait;
import io.pinion.stack.StackTest;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;

/**
 * Bad input against every operation of the OpenAPI document and the management interface: at least 3,000 requests
 * built from malformed ids, limits and cursors, broken and mistyped bodies, and missing, forged, tampered, foreign
 * and admin tokens (so the admin operations check their input too). None may get a 5xx, and every 4xx of the API
 * must carry the one error shape {@code {error, message}}. Seeded, so a failure repeats; sent four at a time.
 */
@QuarkusTest
@StackTest
class BadInputFuzzTest {

    private static final int REQUESTS = 3_000;
    /** Requests to the management interface among them, at least. */
    private static final int MANAGEMENT_REQUESTS = 300;
    private static final String[] MANAGEMENT_PATHS = { "/q/metrics", "/q/health", "/q/health/well", "/q/health/live",
            "/q/health/ready", "/q/health/group/backends", "/q/health/group/%s", "/q/%s", "/q/metrics/%s", "/%s" };
    private static final String[] IDS = {
        "abc",
        "-1",
        "0",
        "1.5",
        "99999999999999999999999",
        "1e9",
        "%20",
        "' OR 1=1 --",
        "9".repeat(40),
        "18446744073709551615",
        "4611686018427387904",
        "0x10",
        "１２３",
        "..",
        "null"
    };
    private static final String[] LIMITS = { "-1", "0", "101", "abc", "1e3", "", "2147483648", "1.0", "%00" };
    private static final String[] NAMES = { "Bad Name!", "", "x".repeat(300), "ü", "a/b", "..", "%2e%2e", "\u0000" };
    private static final String[] BODIES = {
        "{",
        "[]",
        "null",
        "123",
        "\"text\"",
        "{\"boardId\": 5}",
        "{\"name\": {}}",
        "{\"jobs\": \"x\"}",
        "{\"acks\": [null]}",
        "{\"max\": -5, \"waitMs\": 99999999}",
        "{\"username\": 1}",
        "{\"boardId\": \"1\", \"imageUrl\": \"javascript:alert(1)\"}",
        "[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]",
        "{\"description\": \"" + "d".repeat(5000) + "\"}",
        "{\"body\": 5, \"priority\": 99}",
        "{\"partitions\": 1e9}"
    };

    /**
     * Admin operations that do real work whatever the fuzzed parameters (the random ones are not theirs): a graph
     * resync over the whole journal and a round of standby-lag probes take seconds each. They get every token but the
     * admin's; their own input checks are tested where they are.
     */
    private static final Set<String> EXPENSIVE =
            Set.of("post /v1/admin/graph/resync", "post /v1/admin/feed/standby-lag/probes");

    /** One request to send, and whether its 4xx must carry the API's error shape. */
    private record Probe(String description, java.util.function.Supplier<Response> send, boolean apiShape) {
    }

    @Test
    void threeThousandBadRequestsGetNo5xxAndTheErrorShapeOnEvery4xx() throws Exception {
        // the backends' health group is a 503 while any backend is down, by design: fuzz once every one is up (a
        // Redis server restarted by an earlier test may still have its replica catching up)
        Wait.within(60_000, () -> TestApi.management().get("/q/health/group/backends").statusCode() == 200,
                "every backend up before the fuzzing");
        JsonPath openapi = given().get("/q/openapi?format=json").then().statusCode(200).extract().jsonPath();
        Map<String, Map<String, Object>> paths = new TreeMap<>(openapi.getMap("paths"));
        List<String[]> operations = new ArrayList<>();
        paths.forEach((path, methods) -> methods.keySet().stream()
                .filter(method -> List.of("get", "post", "put", "patch", "delete").contains(method))
                .forEach(method -> operations.add(new String[] { method, path })));
        assertTrue(operations.size() > 40, "the document lists the API: " + operations.size());

        TestUser user = TestApi.newUser();
        TestUser admin = TestApi.admin();
        String[] tokens = { null, "Bearer", "Bearer abc", "Bearer " + forged(), "Bearer " + tampered(user.token()),
                "Bearer " + user.token(), "Basic dXNlcjpwYXNz", "Bearer " + admin.token() };
        Random random = new Random(20261124);
        List<Probe> probes = new ArrayList<>();
        while (probes.size() < REQUESTS - MANAGEMENT_REQUESTS) {
            for (String[] operation : operations) {
                String method = operation[0];
                String path = fill(operation[1], random);
                RequestSpecification request = given().redirects().follow(false);
                String token = tokens[random.nextInt(tokens.length)];
                if (EXPENSIVE.contains(method + " " + operation[1])
                        && token != null
                        && token.equals(tokens[tokens.length - 1])) {
                    token = tokens[tokens.length - 3]; // a user's token: refused before any work
                }
                if (token != null) {
                    request.header("Authorization", token);
                }
                if (random.nextBoolean()) {
                    request.queryParam("limit", LIMITS[random.nextInt(LIMITS.length)]);
                }
                if (random.nextInt(3) == 0) {
                    request.queryParam("cursor", cursor(random));
                }
                if (random.nextInt(4) == 0) {
                    request.queryParam("ids", IDS[random.nextInt(IDS.length)] + "," + IDS[random.nextInt(IDS.length)]);
                }
                if (!method.equals("get") && !method.equals("delete")) {
                    request.contentType(random.nextInt(8) == 0 ? "text/plain" : "application/json")
                            .body(BODIES[random.nextInt(BODIES.length)]);
                }
                probes.add(new Probe(
                        method.toUpperCase() + " " + path, () -> request.request(method.toUpperCase(), path), true));
            }
        }
        String[] methods = { "GET", "POST", "PUT", "DELETE", "HEAD" };
        for (int i = 0; i < MANAGEMENT_REQUESTS; i++) {
            String template = MANAGEMENT_PATHS[random.nextInt(MANAGEMENT_PATHS.length)];
            String path = template.contains("%s")
                    ? template.formatted(java.net.URLEncoder.encode(
                            NAMES[random.nextInt(NAMES.length)] + IDS[random.nextInt(IDS.length)],
                            java.nio.charset.StandardCharsets.UTF_8))
                    : template;
            String method = methods[random.nextInt(methods.length)];
            RequestSpecification request = TestApi.management().redirects().follow(false);
            String token = tokens[random.nextInt(tokens.length)];
            if (token != null) {
                request.header("Authorization", token);
            }
            if (random.nextBoolean()) {
                request.queryParam("name", NAMES[random.nextInt(NAMES.length)]);
            }
            if (!method.equals("GET") && !method.equals("HEAD")) {
                request.contentType("application/json").body(BODIES[random.nextInt(BODIES.length)]);
            }
            probes.add(new Probe("management " + method + " " + path, () -> request.request(method, path), false));
        }

        List<String> problems = java.util.Collections.synchronizedList(new ArrayList<>());
        java.util.concurrent.ExecutorService senders = java.util.concurrent.Executors.newFixedThreadPool(4);
        try {
            List<java.util.concurrent.Future<?>> sent = new ArrayList<>();
            for (Probe probe : probes) {
                sent.add(senders.submit(
                        () -> check(probe.description(), probe.send().get(), probe.apiShape(), problems)));
            }
            for (java.util.concurrent.Future<?> each : sent) {
                each.get();
            }
        } finally {
            senders.shutdownNow();
        }
        assertEquals(List.of(), problems.subList(0, Math.min(20, problems.size())),
                problems.size() + " of " + probes.size() + " requests broke the rules");
    }

    /**
     * A health endpoint's 503 is its answer, not a failure, when it reports a backend down: a Redis replica of a
     * server an earlier test restarted can drop out for a moment while it resyncs, after the wait before the fuzzing.
     */
    private static boolean healthReportOfABackendDown(String request, int status, Response response) {
        if (status != 503 || !request.startsWith("management ") || !request.contains(" /q/health")) {
            return false;
        }
        try {
            com.fasterxml.jackson.databind.JsonNode body = io.pinion.Json.of(response);
            if (body == null || !"DOWN".equals(body.path("status").asText())) {
                return false;
            }
            for (com.fasterxml.jackson.databind.JsonNode each : body.path("checks")) {
                if ("DOWN".equals(each.path("status").asText())) {
                    return true;
                }
            }
            return false;
        } catch (RuntimeException notJson) {
            return false;
        }
    }

    private static void check(String request, Response response, boolean apiShape, List<String> problems) {
        int status = response.statusCode();
        if (status >= 500 && !healthReportOfABackendDown(request, status, response)) {
            problems.add(request + " -> " + status + " " + response.asString());
            return;
        }
        if (status >= 400 && apiShape) {
            try { // Jackson, not RestAssured's JsonPath: its Groovy evaluation costs more than the request
                com.fasterxml.jackson.databind.JsonNode body = io.pinion.Json.of(response);
                if (body == null || !body.path("error").isTextual() || !body.path("message").isTextual()) {
                    problems.add(request + " -> " + status + " without the error shape: " + response.asString());
                }
            } catch (RuntimeException notJson) {
                problems.add(request + " -> " + status + " not JSON: " + response.asString());
            }
        }
    }

    /** The path with each {param} replaced by a bad value. */
    private static String fill(String template, Random random) {
        StringBuilder path = new StringBuilder();
        int i = 0;
        while (i < template.length()) {
            int open = template.indexOf('{', i);
            if (open < 0) {
                path.append(template, i, template.length());
                break;
            }
            path.append(template, i, open);
            int close = template.indexOf('}', open);
            String param = template.substring(open + 1, close);
            String value = param.equals("name") || param.equals("role") ? NAMES[random.nextInt(NAMES.length)]
                    : IDS[random.nextInt(IDS.length)];
            path.append(java.net.URLEncoder.encode(value, java.nio.charset.StandardCharsets.UTF_8).replace("+", "%20"));
            i = close + 1;
        }
        return path.toString();
    }

    private static String cursor(Random random) {
        byte[] bytes = new byte[random.nextInt(40)];
        random.nextBytes(bytes);
        return switch (random.nextInt(3)) {
            case 0 -> Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
            case 1 -> "MTIzOjQ1Ng." + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
            default -> "x".repeat(random.nextInt(300));
        };
    }

    /** An unsigned token ({@code alg: none}) claiming the admin role. */
    private static String forged() {
        Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
        return b64.encodeToString("{\"alg\":\"none\",\"typ\":\"JWT\"}".getBytes())
                + "."
                + b64.encodeToString(("{\"iss\":\"pinion\",\"sub\":\"3\",\"groups\":[\"admin\",\"worker\"],\"exp\":"
                                + (System.currentTimeMillis() / 1000 + 3600) + "}")
                        .getBytes())
                + ".";
    }

    /** A real token whose payload was changed to claim the admin role (the signature no longer matches). */
    private static String tampered(String token) {
        String[] parts = token.split("\\.");
        String payload = new String(Base64.getUrlDecoder().decode(parts[1]));
        String changed = payload.replace("\"groups\":[", "\"groups\":[\"admin\",");
        return parts[0] + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(changed.getBytes()) + "."
                + parts[2];
    }
}
