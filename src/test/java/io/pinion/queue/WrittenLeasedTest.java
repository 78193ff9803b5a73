package io.pinion.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import io.pinion.TestApi.TestUser;
import io.pinion.TestApi;
import io.pinion.stack.StackTest;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Jobs enqueued through an instance whose broker owns a partition of the queue, while workers ask for its jobs,
 * are written already leased to that broker and go straight into its buffer (no look, lease and read-back). They are
 * handed out on their first attempt with their own tokens, and a job whose lease lapses unacked runs again, as any
 * leased job does: written leased is as at-least-once as prefetched.
 */
@QuarkusTest
@StackTest
class WrittenLeasedTest {

    @Test
    void jobsEnqueuedWhileWorkersWaitAreWrittenLeasedAndRunAgainWhenTheirLeaseLapses() throws InterruptedException {
        TestUser worker = TestApi.worker();
        String queue = Queues.create("written-leased", Map.of("partitions", 2, "leaseMs", 2_000, "maxAttempts", 3,
                "retry", Map.of("kind", "fixed", "delayMs", 0)));
        // the first job is found by a prefetch: workers now ask, and the partition has leased once
        enqueue(worker, queue, "first");
        List<Map<String, Object>> first = dequeue(worker, queue, 1);
        assertEquals(1, first.size());
        assertEquals(List.of("acked"), ack(worker, first));

        double before = writtenLeased(queue);
        for (int i = 0; i < 5; i++) {
            enqueue(worker, queue, "job-" + i);
        }
        assertEquals(5, writtenLeased(queue) - before, "each enqueue was written leased to this instance's broker");

        List<Map<String, Object>> jobs = dequeue(worker, queue, 5);
        assertEquals(Set.of("job-0", "job-1", "job-2", "job-3", "job-4"),
                jobs.stream().map(job -> (String) job.get("body")).collect(Collectors.toSet()));
        jobs.forEach(job -> assertEquals(1, job.get("attempt")));
        assertEquals(List.of("acked", "acked", "acked"), ack(worker, jobs.subList(0, 3)));

        // the other two are never acked: their leases lapse and they are handed out again, on a second attempt
        List<Map<String, Object>> lapsed = jobs.subList(3, 5);
        Map<String, Map<String, Object>> again = new HashMap<>();
        long deadline = System.currentTimeMillis() + 15_000;
        while (again.size() < 2 && System.currentTimeMillis() < deadline) {
            dequeue(worker, queue, 2).forEach(job -> again.put((String) job.get("id"), job));
        }
        assertEquals(lapsed.stream().map(job -> job.get("id")).collect(Collectors.toSet()), again.keySet());
        again.values().forEach(job -> assertEquals(2, job.get("attempt")));
        assertEquals(List.of("lease_lost", "lease_lost"), ack(worker, lapsed), "the first leases' tokens are spent");
        assertEquals(List.of("acked", "acked"), ack(worker, List.copyOf(again.values())));
        worker.as().get("/v1/queues/" + queue + "/stats").then().statusCode(200)
                .body("counts.SUCCEEDED", org.hamcrest.Matchers.equalTo(6));
    }

    private static void enqueue(TestUser worker, String queue, String body) {
        worker.as().body(Map.of("body", body)).post("/v1/queues/" + queue + "/jobs").then().statusCode(201);
    }

    private static List<Map<String, Object>> dequeue(TestUser worker, String queue, int max) {
        return worker.as().body(Map.of("max", max, "waitMs", 5_000)).post("/v1/queues/" + queue + "/dequeue")
                .then().statusCode(200).extract().jsonPath().getList("items");
    }

    private static List<String> ack(TestUser worker, List<Map<String, Object>> jobs) {
        List<Map<String, Object>> acks = jobs.stream()
                .map(job -> Map.<String, Object>of(
                        "id", job.get("id"), "leaseToken", job.get("leaseToken"), "outcome", "success"))
                .toList();
        return worker.as().body(Map.of("acks", acks)).post("/v1/jobs/ack").then().statusCode(200).extract().jsonPath()
                .getList("items.result", String.class);
    }

    private static double writtenLeased(String queue) {
        String metrics = TestApi.management().get("/q/metrics").then().statusCode(200).extract().asString();
        return metrics.lines()
                .filter(line -> line.startsWith("pinion_queue_written_leased_total{")
                        && line.contains("queue=\"" + queue + "\""))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .sum();
    }
}
