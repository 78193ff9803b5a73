package io.pinion.queue;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.pinion.TestApi.TestUser;
import io.pinion.TestApi;
import io.pinion.stack.StackTest;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

/**
 * The queue API as an outside worker uses it: configure a queue, enqueue, dequeue with a lease, ack, checkpoint,
 * look up, scan, count, retry and delete; and every bad input answered with a 4xx JSON error.
 */
@QuarkusTest
@StackTest
class QueueApiTest {

    @Test
    void createConfigureListAndDeleteAQueue() {
        TestUser admin = TestApi.admin();
        String name = Queues.uniqueName("api");
        JsonPath created = admin.as().body(Map.of("name", name, "partitions", 3, "rateLimit", 50, "maxAttempts", 4,
                        "retry", Map.of("kind", "fixed", "delayMs", 2000), "leaseMs", 30000))
                .post("/v1/queues").then().statusCode(201).extract().jsonPath();
        assertEquals(3, created.getList("partitions").size());
        assertEquals(3, new HashSet<>(created.getList("partitions.shard")).size(), "partitions on distinct shards");
        assertEquals(50.0, created.getDouble("config.rateLimit"));
        assertEquals("fixed", created.getString("config.retry.kind"));

        admin.as()
                .body(Map.of("name", name))
                .post("/v1/queues")
                .then()
                .statusCode(409)
                .body("error", equalTo("queue_exists"));

        admin.as().body(Map.of("partitions", 5, "rateLimit", 0)).patch("/v1/queues/" + name)
                .then().statusCode(200)
                .body("config.partitions", equalTo(5))
                .body("config.rateLimit", equalTo(0.0f))
                .body("partitions", hasSize(5))
                .body("version", equalTo(2));
        admin.as().body(Map.of("partitions", 2)).patch("/v1/queues/" + name)
                .then().statusCode(400).body("error", equalTo("invalid_partitions"));
        admin.as().body(Map.of("unlimited", true)).patch("/v1/queues/" + name)
                .then().statusCode(200).body("config.rateLimit", nullValue());

        TestUser worker = TestApi.worker();
        worker.as()
                .get("/v1/queues")
                .then()
                .statusCode(200)
                .body("items.name", org.hamcrest.Matchers.not(org.hamcrest.Matchers.hasItem(name)));
        admin.as().put("/v1/admin/users/" + worker.id() + "/queues/" + name).then().statusCode(200);
        worker.as().get("/v1/queues").then().statusCode(200).body("items.name", org.hamcrest.Matchers.hasItem(name));
        admin.as().get("/v1/queues/" + name).then().statusCode(200).body("name", equalTo(name));
        admin.as().delete("/v1/queues/" + name).then().statusCode(204);
        admin.as().get("/v1/queues/" + name).then().statusCode(404).body("error", equalTo("queue_not_found"));
    }

    /**
     * A job answered as created exists, and a duplicate answer names the job that held the key, also when the holder
     * finishes while the duplicate is being written (the INSERT and the read of the key's holder are one transaction
     * that locks the holder). The race is narrow: this runs it many times as a guard, it cannot force it.
     */
    @Test
    void aKeyFreedDuringAnEnqueueNeverAnswersAJobThatWasNotWritten() throws Exception {
        TestUser worker = TestApi.worker();
        String queue = Queues.create("dedupe-race", Map.of("partitions", 1));
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
        try {
            for (int round = 0; round < 25; round++) {
                String key = "race-" + round;
                String holder = worker.as().body(Map.of("body", "h", "dedupeKey", key))
                        .post("/v1/queues/" + queue + "/jobs").then().statusCode(201).extract().path("id");
                var freed = pool.submit(() -> worker.as().delete("/v1/jobs/" + holder).then().statusCode(204));
                var second = pool.submit(() -> worker.as().body(Map.of("body", "s", "dedupeKey", key))
                        .post("/v1/queues/" + queue + "/jobs").then().statusCode(201).extract().jsonPath());
                freed.get();
                JsonPath answer = second.get();
                String id = answer.getString("id");
                if (answer.getBoolean("created")) {
                    assertNotEquals(holder, id);
                    worker.as().get("/v1/jobs/" + id).then().statusCode(200).body("state", equalTo("PENDING"));
                } else {
                    assertEquals(holder, id, "a duplicate names the job that held the key");
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void enqueueDequeueAckRoundTrip() {
        TestUser worker = TestApi.worker();
        String queue = Queues.create("roundtrip", Map.of("partitions", 2, "leaseMs", 5000));
        JsonPath enqueued = worker.as().body(Map.of("body", "{\"hello\":1}", "priority", 1))
                .post("/v1/queues/" + queue + "/jobs").then().statusCode(201)
                .body("created", equalTo(true)).extract().jsonPath();
        String id = enqueued.getString("id");
        assertEquals(4, (Long.parseLong(id) >>> 36) & 0x3FF, "a JOB-type Pinion id");

        worker.as().get("/v1/jobs/" + id).then().statusCode(200)
                .body("state", equalTo("PENDING")).body("queue", equalTo(queue)).body("body", equalTo("{\"hello\":1}"));

        JsonPath leased = worker.as().body(Map.of("max", 10, "waitMs", 5000)).post("/v1/queues/" + queue + "/dequeue")
                .then().statusCode(200).extract().jsonPath();
        assertEquals(List.of(id), leased.getList("items.id"));
        assertEquals(1, leased.getInt("items[0].attempt"));
        String token = leased.getString("items[0].leaseToken");
        org.junit.jupiter.api.Assertions.assertTrue(
                token.startsWith("1.") && token.length() > 20, "an unguessable token: " + token);
        worker.as().get("/v1/jobs/" + id).then().body("state", equalTo("RUNNING")).body("attemptsMade", equalTo(1))
                .body("leaseOwner", notNullValue());

        worker.as()
                .body(Map.of("leaseToken", token, "extendMs", 20000, "status", "half way"))
                .post("/v1/jobs/" + id + "/checkpoint")
                .then()
                .statusCode(200)
                .body("leaseExpiresAt", notNullValue());
        worker.as().body(Map.of("leaseToken", "7")).post("/v1/jobs/" + id + "/checkpoint")
                .then().statusCode(400).body("error", equalTo("invalid_lease_token"));

        worker.as()
                .body(Map.of(
                        "acks", List.of(Map.of("id", id, "leaseToken", token, "outcome", "success", "status", "done"))))
                .post("/v1/jobs/ack")
                .then()
                .statusCode(200)
                .body("items[0].result", equalTo("acked"));
        worker.as().get("/v1/jobs/" + id).then().body("state", equalTo("SUCCEEDED"))
                .body("status", equalTo("half way\ndone")).body("leaseOwner", nullValue());
        worker.as().body(Map.of("acks", List.of(Map.of("id", id, "leaseToken", token, "outcome", "success"))))
                .post("/v1/jobs/ack").then().statusCode(200).body("items[0].result", equalTo("lease_lost"));
        worker.as().body(Map.of("acks", List.of(Map.of("id", id, "outcome", "success"))))
                .post("/v1/jobs/ack").then().statusCode(400).body("error", equalTo("invalid_lease_token"));

        worker.as().get("/v1/queues/" + queue + "/stats").then().statusCode(200)
                .body("counts.SUCCEEDED", equalTo(1)).body("counts.PENDING", equalTo(0)).body("partitions", hasSize(2));
    }

    @Test
    void batchEnqueueBinaryBodiesScanAndStats() {
        TestUser worker = TestApi.worker();
        String queue = Queues.create("batch", Map.of("partitions", 4));
        List<Map<String, Object>> jobs = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            jobs.add(Map.of("body", "job-" + i));
        }
        jobs.add(Map.of(
                "bodyBase64",
                Base64.getEncoder().encodeToString(new byte[] {(byte) 0xff, 0, 1}),
                "delayMs",
                3_600_000));
        List<String> ids = Queues.enqueue(worker, queue, jobs);
        assertEquals(26, new HashSet<>(ids).size());

        String binary = ids.get(25);
        worker.as().get("/v1/jobs/" + binary).then().statusCode(200)
                .body("body", nullValue()).body("bodyBase64", equalTo("/wAB"));

        worker.as().get("/v1/queues/" + queue + "/stats").then().statusCode(200).body("counts.PENDING", equalTo(26));
        List<String> scanned = new ArrayList<>();
        String cursor = null;
        do {
            var request = worker.as().queryParam("state", "pending").queryParam("limit", 10);
            if (cursor != null) {
                request.queryParam("cursor", cursor);
            }
            JsonPath page = request.get("/v1/queues/" + queue + "/jobs").then().statusCode(200).extract().jsonPath();
            scanned.addAll(page.getList("items.id"));
            cursor = page.getString("nextCursor");
        } while (cursor != null);
        assertEquals(new HashSet<>(ids), new HashSet<>(scanned));
        assertEquals(26, scanned.size());
    }

    @Test
    void dedupeKeysReturnTheWaitingJob() {
        TestUser worker = TestApi.worker();
        String queue = Queues.create("dedupe", Map.of("partitions", 3));
        String first = worker.as().body(Map.of("body", "a", "dedupeKey", "user-42"))
                .post("/v1/queues/" + queue + "/jobs").then().statusCode(201).body("created", equalTo(true))
                .extract().path("id");
        worker.as().body(Map.of("body", "b", "dedupeKey", "user-42"))
                .post("/v1/queues/" + queue + "/jobs").then().statusCode(201)
                .body("created", equalTo(false)).body("id", equalTo(first));
        List<String> batch = worker.as().body(Map.of("jobs", List.of(
                        Map.of("body", "c", "dedupeKey", "user-42"),
                        Map.of("body", "d", "dedupeKey", "user-43"),
                        Map.of("body", "e", "dedupeKey", "user-43"))))
                .post("/v1/queues/" + queue + "/jobs").then().statusCode(201)
                .body("items.created", equalTo(List.of(false, true, false)))
                .extract().jsonPath().getList("items.id");
        assertEquals(first, batch.get(0));
        assertEquals(batch.get(1), batch.get(2));
        worker.as().get("/v1/queues/" + queue + "/stats").then().body("counts.PENDING", equalTo(2));

        // once the job finishes, its key is free again
        worker.as().delete("/v1/jobs/" + first).then().statusCode(204);
        String again = worker.as().body(Map.of("body", "f", "dedupeKey", "user-42"))
                .post("/v1/queues/" + queue + "/jobs").then().statusCode(201).body("created", equalTo(true))
                .extract().path("id");
        assertNotEquals(first, again);
    }

    @Test
    void badInputsGetJsonErrors() {
        TestUser worker = TestApi.worker();
        TestUser admin = TestApi.admin();
        String queue = Queues.create("bad", Map.of("partitions", 1, "maxBodyBytes", 100));

        worker.as().body(Map.of("body", "x".repeat(101))).post("/v1/queues/" + queue + "/jobs")
                .then().statusCode(413).body("error", equalTo("body_too_large"));
        worker.as().body(Map.of("body", "x".repeat(100))).post("/v1/queues/" + queue + "/jobs").then().statusCode(201);
        admin.as().body(Map.of("body", "x")).post("/v1/queues/no-such-queue/jobs")
                .then().statusCode(404).body("error", equalTo("queue_not_found"));
        worker.as().body(Map.of("body", "x")).post("/v1/queues/no-such-queue/jobs")
                .then().statusCode(403).body("error", equalTo("forbidden"));
        worker.as().body(Map.of("body", "x", "priority", 4)).post("/v1/queues/" + queue + "/jobs")
                .then().statusCode(400).body("error", equalTo("invalid_priority"));
        worker.as().body(Map.of("body", "x", "runAfter", "tomorrow")).post("/v1/queues/" + queue + "/jobs")
                .then().statusCode(400).body("error", equalTo("invalid_schedule"));
        worker.as().body(Map.of("jobs", List.of())).post("/v1/queues/" + queue + "/jobs")
                .then().statusCode(400).body("error", equalTo("invalid_batch"));
        worker.as().body(Map.of("bodyBase64", "***")).post("/v1/queues/" + queue + "/jobs")
                .then().statusCode(400).body("error", equalTo("invalid_body"));

        for (String garbage : List.of("abc", "-5", "99999999999999999999", "0")) {
            worker.as().get("/v1/jobs/" + garbage).then().statusCode(400).body("error", equalTo("invalid_id"));
        }
        String pinShapedId = Long.toString((1L << 46) | (1L << 36) | 5);
        worker.as().get("/v1/jobs/" + pinShapedId).then().statusCode(400).body("error", equalTo("wrong_id_type"));
        String unknownJob = Long.toString((3L << 46) | (4L << 36) | 123_456_789L);
        worker.as().get("/v1/jobs/" + unknownJob).then().statusCode(404).body("error", equalTo("job_not_found"));
        worker.as().body(Map.of("acks", List.of(Map.of("id", "nope", "outcome", "success"))))
                .post("/v1/jobs/ack").then().statusCode(400).body("error", equalTo("invalid_id"));
        worker.as().body(Map.of("acks", List.of(Map.of("id", unknownJob, "outcome", "maybe"))))
                .post("/v1/jobs/ack").then().statusCode(400).body("error", equalTo("invalid_outcome"));
        worker.as().body(Map.of("acks", List.of(Map.of("id", unknownJob, "outcome", "success"))))
                .post("/v1/jobs/ack").then().statusCode(400).body("error", equalTo("invalid_lease_token"));
        worker.as()
                .body(Map.of(
                        "acks", List.of(Map.of("id", unknownJob, "outcome", "success", "status", "s".repeat(5001)))))
                .post("/v1/jobs/ack")
                .then()
                .statusCode(400)
                .body("error", equalTo("invalid_status"));
        worker.as().queryParam("state", "DONE").get("/v1/queues/" + queue + "/jobs")
                .then().statusCode(400).body("error", equalTo("invalid_state"));
        worker.as()
                .queryParam("state", "PENDING")
                .queryParam("cursor", "forged.cursor")
                .get("/v1/queues/" + queue + "/jobs")
                .then()
                .statusCode(400)
                .body("error", equalTo("invalid_cursor"));
        worker.as().body(Map.of("max", 0)).post("/v1/queues/" + queue + "/dequeue")
                .then().statusCode(400).body("error", equalTo("invalid_max"));

        admin.as()
                .body(Map.of("name", "Bad Name!"))
                .post("/v1/queues")
                .then()
                .statusCode(400)
                .body("error", equalTo("invalid_queue_name"));
        admin.as().body(Map.of("name", Queues.uniqueName("x"), "fifo", true, "partitions", 2)).post("/v1/queues")
                .then().statusCode(400).body("error", equalTo("invalid_partitions"));
        admin.as().body(Map.of("name", Queues.uniqueName("x"), "retry", Map.of("kind", "linear"))).post("/v1/queues")
                .then().statusCode(400).body("error", equalTo("invalid_retry"));
        admin.as().body(Map.of("name", Queues.uniqueName("x"), "leaseMs", 10)).post("/v1/queues")
                .then().statusCode(400).body("error", equalTo("invalid_lease_ms"));
        admin.as().body(Map.of("name", Queues.uniqueName("x"), "rateLimit", -1)).post("/v1/queues")
                .then().statusCode(400).body("error", equalTo("invalid_rate_limit"));

        // roles: workers cannot configure queues, ordinary users cannot touch them
        worker.as()
                .body(Map.of("name", Queues.uniqueName("x")))
                .post("/v1/queues")
                .then()
                .statusCode(403)
                .body("error", equalTo("forbidden"));
        TestApi.newUser().as().body(Map.of("body", "x")).post("/v1/queues/" + queue + "/jobs").then().statusCode(403);
        given().contentType("application/json").body(Map.of("body", "x")).post("/v1/queues/" + queue + "/jobs")
                .then().statusCode(401).body("error", equalTo("unauthorized"));
    }

    @Test
    void failedJobsCanBeRetriedAndDeleted() {
        TestUser worker = TestApi.worker();
        String queue = Queues.create("retry-api", Map.of("partitions", 1, "maxAttempts", 1));
        String id = worker.as().body(Map.of("body", "x", "dedupeKey", "k1")).post("/v1/queues/" + queue + "/jobs")
                .then().statusCode(201).extract().path("id");
        String token = worker.as().body(Map.of("max", 1, "waitMs", 5000)).post("/v1/queues/" + queue + "/dequeue")
                .then().statusCode(200).body("items", hasSize(1)).extract().path("items[0].leaseToken");
        worker.as()
                .body(Map.of(
                        "acks", List.of(Map.of("id", id, "leaseToken", token, "outcome", "failure", "status", "boom"))))
                .post("/v1/jobs/ack")
                .then()
                .statusCode(200)
                .body("items[0].result", equalTo("acked"));
        worker.as()
                .get("/v1/jobs/" + id)
                .then()
                .body("state", equalTo("FAILED"))
                .body("status", containsString("boom"));
        worker.as()
                .queryParam("state", "FAILED")
                .get("/v1/queues/" + queue + "/jobs")
                .then()
                .body("items.id", equalTo(List.of(id)));

        // PENDING with fresh attempts, or already prefetched again by the broker (this queue has demand)
        worker.as().post("/v1/jobs/" + id + "/retry").then().statusCode(200)
                .body("state", org.hamcrest.Matchers.oneOf("PENDING", "RUNNING"))
                .body("attemptsMade", org.hamcrest.Matchers.lessThanOrEqualTo(1));
        worker.as().post("/v1/jobs/" + id + "/retry").then().statusCode(409).body("error", equalTo("not_failed"));
        // the key is held again while the job waits
        worker.as().body(Map.of("body", "y", "dedupeKey", "k1")).post("/v1/queues/" + queue + "/jobs")
                .then().statusCode(201).body("id", equalTo(id)).body("created", equalTo(false));
        worker.as().delete("/v1/jobs/" + id).then().statusCode(204);
        worker.as().get("/v1/jobs/" + id).then().statusCode(404);
        worker.as().delete("/v1/jobs/" + id).then().statusCode(404);
        assertTrue(true);
    }
}
