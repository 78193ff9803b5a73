package io.pinion.queue;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
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
 * A failing in-app handler is retried with the queue's backoff until its attempts are spent; the job is then
 * FAILED with the failures in its status, and retrying it brings it back.
 */
@QuarkusTest
@StackTest
class RetryTest {

    @Test
    void failingHandlerRetriesWithBackoffThenFailsAndRetryBringsItBack() throws InterruptedException {
        TestUser worker = TestApi.worker();
        Queues.grantToWorker("flaky-test");
        TestApi.admin().as().body(Map.of("retry", Map.of("kind", "fixed", "delayMs", 400)))
                .patch("/v1/queues/flaky-test").then().statusCode(200);
        Wait.pause(Duration.ofMillis(600), "every instance picks the new backoff up within a refresh interval");

        String body = "fail-" + UUID.randomUUID();
        RecordingHandlers.Flaky.FAILING.add(body);
        String id = worker.as().body(Map.of("body", body)).post("/v1/queues/flaky-test/jobs")
                .then().statusCode(201).extract().path("id");

        Wait.within(20_000, () -> "FAILED".equals(state(worker, id)), "the job FAILED");
        List<Long> attempts = RecordingHandlers.Flaky.ATTEMPTS.get(body);
        assertEquals(3, attempts.size(), "maxAttempts = 3");
        for (int i = 1; i < attempts.size(); i++) {
            long gap = attempts.get(i) - attempts.get(i - 1);
            assertTrue(
                    gap >= 380,
                    "attempt " + (i + 1) + " came " + gap + " ms after the previous one; backoff is 400 ms");
        }
        worker.as().get("/v1/jobs/" + id).then()
                .body("attemptsMade", equalTo(3))
                .body("status", containsString("attempt 1: IllegalStateException: refusing " + body))
                .body("status", containsString("attempt 3: IllegalStateException"));

        RecordingHandlers.Flaky.FAILING.remove(body);
        worker.as().post("/v1/jobs/" + id + "/retry").then().statusCode(200)
                .body("state", org.hamcrest.Matchers.not(equalTo("FAILED")));
        Wait.within(20_000, () -> "SUCCEEDED".equals(state(worker, id)), "the retried job SUCCEEDED");
        assertEquals(4, RecordingHandlers.Flaky.ATTEMPTS.get(body).size());
        worker.as().get("/v1/jobs/" + id).then().body("attemptsMade", equalTo(1));
    }

    @Test
    void aFailureAckCanSetItsOwnDelayAndBulkRetryRevivesFailedJobs() {
        TestUser worker = TestApi.worker();
        String queue = Queues.create("retry-delay", Map.of("partitions", 2, "maxAttempts", 2,
                "retry", Map.of("kind", "exponential", "delayMs", 60_000, "maxDelayMs", 600_000)));
        String id = worker.as().body(Map.of("body", "x")).post("/v1/queues/" + queue + "/jobs")
                .then().statusCode(201).extract().path("id");
        var leased = JobOrderingTest.dequeue(worker, queue, 1, 5_000);
        worker.as().body(Map.of("acks", List.of(Map.of("id", id, "leaseToken", leased.getString("items[0].leaseToken"),
                        "outcome", "failure", "retryDelayMs", 300))))
                .post("/v1/jobs/ack").then().statusCode(200).body("items[0].result", equalTo("acked"));
        // due again after the override (300 ms), not the queue's 60 s backoff
        var again = JobOrderingTest.dequeue(worker, queue, 1, 5_000);
        assertEquals(List.of(id), again.getList("items.id"));
        assertEquals(2, again.getInt("items[0].attempt"));
        worker.as().body(Map.of("acks", List.of(Map.of("id", id, "leaseToken", again.getString("items[0].leaseToken"),
                        "outcome", "failure"))))
                .post("/v1/jobs/ack").then().statusCode(200);
        worker.as().get("/v1/jobs/" + id).then().body("state", equalTo("FAILED"));

        worker.as().post("/v1/queues/" + queue + "/retry-failed").then().statusCode(200).body("retried", equalTo(1));
        // back with fresh attempts: handed out again as attempt 1
        var revived = JobOrderingTest.dequeue(worker, queue, 1, 5_000);
        assertEquals(List.of(id), revived.getList("items.id"));
        assertEquals(1, revived.getInt("items[0].attempt"));
    }

    static String state(TestUser worker, String id) {
        return worker.as().get("/v1/jobs/" + id).then().statusCode(200).extract().path("state");
    }
}
