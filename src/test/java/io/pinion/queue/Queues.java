package io.pinion.queue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.pinion.TestApi;
import io.pinion.TestApi.TestUser;

/** Queue helpers for tests: unique queue names, creation through the API, batch enqueue. */
final class Queues {

    private Queues() {
    }

    static String uniqueName(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** Creates a queue as the admin with the given settings (name added) and grants it to the tests' worker. */
    static String create(String prefix, Map<String, Object> settings) {
        String name = uniqueName(prefix);
        Map<String, Object> body = new HashMap<>(settings);
        body.put("name", name);
        TestUser admin = TestApi.admin();
        admin.as().body(body).post("/v1/queues").then().statusCode(201);
        grantToWorker(name);
        return name;
    }

    /** Grants the tests' worker a queue (as an admin does). */
    static void grantToWorker(String queue) {
        TestApi.admin()
                .as()
                .put("/v1/admin/users/" + TestApi.worker().id() + "/queues/" + queue)
                .then()
                .statusCode(200);
    }

    /** Enqueues bodies in batches of up to 1,000; returns the ids in order. */
    static List<String> enqueue(TestUser worker, String queue, List<Map<String, Object>> jobs) {
        List<String> ids = new java.util.ArrayList<>();
        for (int from = 0; from < jobs.size(); from += 1000) {
            List<Map<String, Object>> batch = jobs.subList(from, Math.min(jobs.size(), from + 1000));
            io.pinion.Json.of(worker.as()
                            .body(Map.of("jobs", batch))
                            .post("/v1/queues/" + queue + "/jobs")
                            .then()
                            .statusCode(201)
                            .extract()
                            .response())
                    .path("items")
                    .forEach(item -> ids.add(item.path("id").asText()));
        }
        return ids;
    }
}
