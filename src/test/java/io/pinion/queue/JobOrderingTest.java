package io.pinion.queue;

import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.pinion.TestApi.TestUser;
import io.pinion.TestApi;
import io.pinion.Wait;
import io.pinion.stack.StackTest;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

/**
 * Scheduled jobs wait for run_after, priority 1 is served before 2 and 3, and a FIFO queue completes jobs in
 * enqueue order although its handler runs with concurrency 8.
 */
@QuarkusTest
@StackTest
class JobOrderingTest {

    @Test
    void scheduledJobsDoNotRunBeforeRunAfter() {
        TestUser worker = TestApi.worker();
        String queue = Queues.create("scheduled", Map.of("partitions", 2));
        long runAfter = System.currentTimeMillis() + 2_500;
        String id = worker.as().body(Map.of("body", "later", "runAfter", Instant.ofEpochMilli(runAfter).toString()))
                .post("/v1/queues/" + queue + "/jobs").then().statusCode(201).extract().path("id");
        String now = worker.as().body(Map.of("body", "now")).post("/v1/queues/" + queue + "/jobs")
                .then().statusCode(201).extract().path("id");

        JsonPath first = dequeue(worker, queue, 10, 5_000);
        assertEquals(List.of(now), first.getList("items.id"), "only the due job is handed out");
        long deadline = System.currentTimeMillis() + 10_000;
        List<String> later = List.of();
        while (later.isEmpty() && System.currentTimeMillis() < deadline) {
            later = dequeue(worker, queue, 10, 1_000).getList("items.id");
            if (!later.isEmpty()) {
                assertTrue(System.currentTimeMillis() >= runAfter, "handed out before run_after");
            }
        }
        assertEquals(List.of(id), later);
    }

    @Test
    void higherPriorityIsServedFirst() {
        TestUser worker = TestApi.worker();
        String queue = Queues.create("priority", Map.of("partitions", 1, "rateLimit", 0));
        List<Map<String, Object>> jobs = new ArrayList<>();
        for (int priority = 3; priority >= 1; priority--) {
            for (int i = 0; i < 30; i++) {
                jobs.add(Map.of("body", "p" + priority + "-" + i, "priority", priority));
            }
        }
        Queues.enqueue(worker, queue, jobs);
        // paused while everything is enqueued, then opened
        TestApi.admin().as().body(Map.of("unlimited", true)).patch("/v1/queues/" + queue).then().statusCode(200);

        List<Integer> served = new ArrayList<>();
        long deadline = System.currentTimeMillis() + 20_000;
        while (served.size() < 90 && System.currentTimeMillis() < deadline) {
            JsonPath page = dequeue(worker, queue, 7, 1_000);
            served.addAll(page.getList("items.priority", Integer.class));
            ack(worker, page);
        }
        assertEquals(90, served.size());
        List<Integer> sorted = new ArrayList<>(served);
        sorted.sort(Comparator.naturalOrder());
        assertEquals(sorted, served, "served in priority order");
    }

    @Test
    void fifoQueueCompletesInEnqueueOrderUnderConcurrency() throws InterruptedException {
        Queues.grantToWorker("fifo-test");
        TestUser worker = TestApi.worker();
        String run = UUID.randomUUID().toString().substring(0, 8);
        List<String> enqueued = new ArrayList<>();
        List<String> ids = new ArrayList<>();
        for (int batch = 0; batch < 6; batch++) {
            List<Map<String, Object>> jobs = new ArrayList<>();
            for (int i = 0; i < 25; i++) {
                String body = run + "-" + (batch * 25 + i);
                enqueued.add(body);
                jobs.add(Map.of("body", body));
            }
            ids.addAll(Queues.enqueue(worker, "fifo-test", jobs));
        }
        for (int i = 0; i < 10; i++) {
            String body = run + "-" + (150 + i);
            enqueued.add(body);
            ids.add(worker.as().body(Map.of("body", body)).post("/v1/queues/fifo-test/jobs")
                    .then().statusCode(201).extract().path("id"));
        }
        List<Long> asNumbers = ids.stream().map(Long::parseLong).toList();
        List<Long> ascending = new ArrayList<>(asNumbers);
        ascending.sort(Comparator.naturalOrder());
        assertEquals(ascending, asNumbers, "FIFO ids follow enqueue order");

        Wait.upTo(60_000, () -> mine(run).size() >= enqueued.size()); // asserted below, the lists shown
        assertEquals(enqueued, mine(run), "completed in enqueue order");
        worker.as().get("/v1/jobs/" + ids.get(ids.size() - 1)).then().body("state", equalTo("SUCCEEDED"));
    }

    private static List<String> mine(String run) {
        return RecordingHandlers.Fifo.COMPLETED.stream().filter(body -> body.startsWith(run + "-")).toList();
    }

    static JsonPath dequeue(TestUser worker, String queue, int max, long waitMs) {
        return worker.as().body(Map.of("max", max, "waitMs", waitMs)).post("/v1/queues/" + queue + "/dequeue")
                .then().statusCode(200).extract().jsonPath();
    }

    static void ack(TestUser worker, JsonPath leased) {
        List<String> ids = leased.getList("items.id");
        List<String> tokens = leased.getList("items.leaseToken");
        if (ids.isEmpty()) {
            return;
        }
        List<Map<String, Object>> acks = new ArrayList<>();
        for (int i = 0; i < ids.size(); i++) {
            acks.add(Map.of("id", ids.get(i), "leaseToken", tokens.get(i), "outcome", "success"));
        }
        worker.as().body(Map.of("acks", acks)).post("/v1/jobs/ack").then().statusCode(200);
    }
}
