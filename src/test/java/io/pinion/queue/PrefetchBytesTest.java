package io.pinion.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;

import io.pinion.TestApi.TestUser;
import io.pinion.TestApi;
import io.pinion.Wait;
import io.pinion.stack.StackTest;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The broker's prefetch is bounded by the bodies' real sizes ({@code pinion.queue.buffer-max-bytes}, 4 MiB), not by
 * the largest body the queue allows: small jobs fill the buffer by count, large ones stop at the byte budget. And
 * concurrent acks of one partition, which share UPDATEs, each get their own results.
 */
@QuarkusTest
@StackTest
class PrefetchBytesTest {

    private static final long BUFFER_MAX_BYTES = 4L << 20;

    @Test
    void smallBodiesFillTheBufferByCountAndLargeOnesStopAtTheByteBudget() throws InterruptedException {
        TestUser worker = TestApi.worker();
        String small = Queues.create("prefetch-small", Map.of("partitions", 1, "leaseMs", 60_000));
        Queues.enqueue(worker, small, bodies(600, 20));
        dequeue(worker, small, 1);
        Wait.within(10_000, () -> running(worker, small) >= 500, "500 small jobs leased");
        // one prefetch took a whole batch (500); a bound by the largest body the queue allows (64 KiB) takes 64 at a
        // time
        assertTrue(largestPrefetch() >= 500, "the largest prefetch leased " + largestPrefetch() + " jobs");

        int size = 60_000;
        String large = Queues.create("prefetch-large", Map.of("partitions", 1, "leaseMs", 60_000));
        Queues.enqueue(worker, large, bodies(120, size));
        dequeue(worker, large, 1);
        Wait.within(10_000, () -> running(worker, large) >= 2, "a large job prefetched");
        Wait.pause(Duration.ofMillis(1_500), "prefetches after the first would have come by then");
        long buffered = running(worker, large) - 1;
        assertTrue(buffered * size <= BUFFER_MAX_BYTES + size,
                buffered + " buffered jobs of " + size + " bytes pass the buffer's byte budget");
    }

    @Test
    void concurrentAcksOfOnePartitionEachGetTheirOwnResults() {
        TestUser worker = TestApi.worker();
        String queue = Queues.create("ack-lanes", Map.of("partitions", 1, "leaseMs", 60_000));
        Queues.enqueue(worker, queue, bodies(200, 10));
        List<Map<String, Object>> leased = new ArrayList<>();
        while (leased.size() < 200) {
            leased.addAll(dequeue(worker, queue, 200 - leased.size()));
        }
        List<CompletableFuture<List<String>>> calls = new ArrayList<>();
        for (int call = 0; call < 20; call++) {
            List<Map<String, Object>> acks = new ArrayList<>();
            for (Map<String, Object> job : leased.subList(call * 10, call * 10 + 10)) {
                acks.add(Map.of("id", job.get("id"), "leaseToken", job.get("leaseToken"), "outcome", "success"));
            }
            if (call > 0) { // each call also repeats the first job of the call before it
                Map<String, Object> before = leased.get((call - 1) * 10);
                acks.add(Map.of("id", before.get("id"), "leaseToken", before.get("leaseToken"), "outcome", "success"));
            }
            calls.add(CompletableFuture.supplyAsync(() -> worker.as().body(Map.of("acks", acks)).post("/v1/jobs/ack")
                    .then().statusCode(200).extract().jsonPath().getList("items.result", String.class)));
        }
        int acked = 0;
        for (int call = 0; call < 20; call++) {
            List<String> results = calls.get(call).join();
            assertEquals(call == 0 ? 10 : 11, results.size());
            for (int k = 0; k < 10; k++) {
                if ("acked".equals(results.get(k))) {
                    acked++;
                }
            }
            if (call > 0) {
                assertTrue(List.of("acked", "lease_lost").contains(results.get(10)), results.toString());
                acked += "acked".equals(results.get(10)) ? 1 : 0;
            }
        }
        // every job acked exactly once, whichever call got it first
        assertEquals(200, acked);
        worker.as().get("/v1/queues/" + queue + "/stats").then().statusCode(200)
                .body("counts.SUCCEEDED", org.hamcrest.Matchers.equalTo(200));
    }

    private static List<Map<String, Object>> bodies(int count, int bytes) {
        List<Map<String, Object>> jobs = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Map<String, Object> job = new HashMap<>();
            job.put("body", String.format("%0" + bytes + "d", i));
            jobs.add(job);
        }
        return jobs;
    }

    private static List<Map<String, Object>> dequeue(TestUser worker, String queue, int max) {
        return worker.as().body(Map.of("max", max, "waitMs", 5_000)).post("/v1/queues/" + queue + "/dequeue")
                .then().statusCode(200).extract().jsonPath().getList("items");
    }

    private static double largestPrefetch() {
        String metrics = TestApi.management().get("/q/metrics").then().statusCode(200).extract().asString();
        return metrics.lines().filter(line -> line.startsWith("pinion_queue_prefetch_jobs_max"))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1))).max().orElse(0);
    }

    private static long running(TestUser worker, String queue) {
        Number running = worker.as().get("/v1/queues/" + queue + "/stats").then().statusCode(200).extract().jsonPath()
                .get("counts.RUNNING");
        return running == null ? 0 : running.longValue();
    }
}
