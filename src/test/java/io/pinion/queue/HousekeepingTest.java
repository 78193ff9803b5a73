package io.pinion.queue;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.pinion.TestApi.TestUser;
import io.pinion.TestApi;
import io.pinion.Wait;
import io.pinion.stack.StackTest;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Finished jobs are deleted after their queue's retention; queues publish metrics; health and the admin API show
 * the brokers and the partitions they own.
 */
@QuarkusTest
@StackTest
class HousekeepingTest {

    @Test
    void finishedJobsAreCollectedAfterRetention() throws InterruptedException {
        TestUser worker = TestApi.worker();
        String queue = Queues.create("gc", Map.of("partitions", 1, "retentionMs", 300));
        String id = worker.as().body(Map.of("body", "short-lived")).post("/v1/queues/" + queue + "/jobs")
                .then().statusCode(201).extract().path("id");
        var leased = JobOrderingTest.dequeue(worker, queue, 1, 5_000);
        JobOrderingTest.ack(worker, leased);
        worker.as().get("/v1/jobs/" + id).then().statusCode(200).body("state", equalTo("SUCCEEDED"));
        Wait.within(15_000, () -> worker.as().get("/v1/jobs/" + id).statusCode() == 404, "the finished job deleted");
    }

    @Test
    void metricsHealthAndBrokersDescribeTheQueue() throws InterruptedException {
        TestUser worker = TestApi.worker();
        String queue = Queues.create("observed", Map.of("partitions", 2));
        Queues.enqueue(worker, queue, List.of(Map.of("body", "a"), Map.of("body", "b"), Map.of("body", "c")));
        var leased = JobOrderingTest.dequeue(worker, queue, 3, 5_000);
        JobOrderingTest.ack(worker, leased);

        Wait.within(10_000, () -> io.pinion.TestApi.management().get("/q/metrics").asString()
                .contains("pinion_queue_depth{partition=\"0\",queue=\"" + queue + "\"}"), "the queue's depth gauge");
        io.pinion.TestApi.management().get("/q/metrics").then().statusCode(200)
                .body(containsString("pinion_queue_enqueued_total{queue=\"" + queue + "\"} 3.0"))
                .body(containsString("pinion_queue_acked_total{outcome=\"success\",queue=\"" + queue + "\"}"))
                .body(containsString("pinion_queue_handoff_seconds{queue=\"" + queue + "\",quantile=\"0.99\"}"));

        io.pinion.TestApi.management().get("/q/health/well").then().statusCode(200)
                .body("checks.find { it.name == 'dequeue-broker' }.status", equalTo("UP"));
        TestApi.admin().as().get("/v1/admin/brokers").then().statusCode(200)
                .body("flatten().partitions.flatten()", hasItem(queue + "/0"))
                .body("flatten().partitions.flatten()", hasItem(queue + "/1"));
        worker.as().get("/v1/admin/brokers").then().statusCode(403);
    }
}
