package io.pinion.queue;

import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.pinion.TestApi.TestUser;
import io.pinion.TestApi;
import io.pinion.Wait;
import io.pinion.stack.StackTest;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Lease tokens name the job's lease sequence, which no retry resets: after an admin's retry the new lease's token
 * differs from every earlier one, and an earlier token is {@code lease_lost}. Acks and checkpoints need the queue's
 * grant as dequeues do, and no checkpoint extends a lease past {@code pinion.queue.lease-max-total} (30 s in tests).
 */
@QuarkusTest
@StackTest
class LeaseSequenceTest {

    @Test
    void aRetriedJobsNewLeaseNeverRepeatsAnEarlierToken() {
        TestUser worker = TestApi.worker();
        String queue = Queues.create("lease-seq", Map.of("partitions", 1, "maxAttempts", 1));
        String id = worker.as().body(Map.of("body", "x")).post("/v1/queues/" + queue + "/jobs")
                .then().statusCode(201).extract().path("id");
        String first = dequeue(worker, queue);
        worker.as().body(Map.of("acks", List.of(Map.of("id", id, "leaseToken", first, "outcome", "failure"))))
                .post("/v1/jobs/ack").then().statusCode(200).body("items[0].result", equalTo("acked"));
        worker.as().get("/v1/jobs/" + id).then().body("state", equalTo("FAILED"));

        TestApi.admin().as().post("/v1/jobs/" + id + "/retry").then().statusCode(200);
        String second = dequeue(worker, queue);
        assertNotEquals(first, second, "the retried job's lease got the token of its earlier lease");

        // the worker of the first lease can neither checkpoint nor ack the lease the second one holds
        worker.as().body(Map.of("leaseToken", first)).post("/v1/jobs/" + id + "/checkpoint")
                .then().statusCode(409).body("error", equalTo("lease_lost"));
        worker.as().body(Map.of("acks", List.of(Map.of("id", id, "leaseToken", first, "outcome", "success"))))
                .post("/v1/jobs/ack").then().statusCode(200).body("items[0].result", equalTo("lease_lost"));
        worker.as().body(Map.of("acks", List.of(Map.of("id", id, "leaseToken", second, "outcome", "success"))))
                .post("/v1/jobs/ack").then().statusCode(200).body("items[0].result", equalTo("acked"));
    }

    @Test
    void aRevokedQueueGrantStopsAcksAndCheckpointsAndNoLeaseOutlivesItsTotal() throws InterruptedException {
        TestUser admin = TestApi.admin();
        String queue = Queues.create("lease-grant", Map.of("partitions", 1, "leaseMs", 5000));
        String name = "w_" + UUID.randomUUID().toString().replace("-", "").substring(0, 20);
        TestUser user = TestApi.signUpAndLogin(name, "password-" + name);
        admin.as().put("/v1/admin/users/" + user.id() + "/roles/worker").then().statusCode(200);
        admin.as().put("/v1/admin/users/" + user.id() + "/queues/" + queue).then().statusCode(200);
        TestUser worker = TestApi.login(name, "password-" + name);
        String id = worker.as().body(Map.of("body", "x")).post("/v1/queues/" + queue + "/jobs")
                .then().statusCode(201).extract().path("id");
        String token = dequeue(worker, queue);

        long before = System.currentTimeMillis();
        String expires = worker.as()
                .body(Map.of("leaseToken", token, "extendMs", 86_400_000))
                .post("/v1/jobs/" + id + "/checkpoint")
                .then()
                .statusCode(200)
                .extract()
                .path("leaseExpiresAt");
        long end = Instant.parse(expires).toEpochMilli();
        assertTrue(
                end <= before + 31_000, "a day's extension ended " + (end - before) + " ms later, past the 30 s total");

        admin.as().delete("/v1/admin/users/" + user.id() + "/queues/" + queue).then().statusCode(200);
        Wait.pause(Duration.ofMillis(2_500), "the grants read before the revoke expire (grants-reuse: 2 s in tests)");
        worker.as().body(Map.of("leaseToken", token)).post("/v1/jobs/" + id + "/checkpoint")
                .then().statusCode(403).body("error", equalTo("forbidden"));
        worker.as().body(Map.of("acks", List.of(Map.of("id", id, "leaseToken", token, "outcome", "success"))))
                .post("/v1/jobs/ack").then().statusCode(403).body("error", equalTo("forbidden"));
        admin.as().get("/v1/jobs/" + id).then().body("state", equalTo("RUNNING"));
    }

    private static String dequeue(TestUser worker, String queue) {
        return worker.as().body(Map.of("max", 1, "waitMs", 5000)).post("/v1/queues/" + queue + "/dequeue")
                .then().statusCode(200).body("items", hasSize(1)).extract().path("items[0].leaseToken");
    }
}
