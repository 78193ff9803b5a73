package io.pinion.queue.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.pinion.TestApi;
import io.pinion.Wait;
import io.pinion.queue.LeasedJob;
import io.pinion.stack.StackTest;
import io.quarkus.test.junit.QuarkusTest;

/**
 * A FIFO partition's head that was taken but could not be handed out (the long poll that found it had timed out) is
 * put back and handed out at the next dequeue: it is not left "in flight", which stalled the partition until its
 * lease expired and cost the job an attempt.
 */
@QuarkusTest
@StackTest
class FifoPutBackTest {

    @Inject
    LocalBroker local;

    @Test
    void aFifoHeadPutBackIsTheNextJobHandedOut() throws InterruptedException {
        DequeueBroker broker = local.broker().orElseThrow();
        String queue = "fifo-putback-" + UUID.randomUUID().toString().substring(0, 8);
        TestApi.admin().as().body(Map.of("name", queue, "fifo", true, "partitions", 1)).post("/v1/queues")
                .then().statusCode(201);
        TestApi.admin()
                .as()
                .put("/v1/admin/users/" + TestApi.worker().id() + "/queues/" + queue)
                .then()
                .statusCode(200);
        List<String> ids = TestApi.worker()
                .as()
                .body(Map.of("jobs", List.of(Map.of("body", "first"), Map.of("body", "second"))))
                .post("/v1/queues/" + queue + "/jobs")
                .then()
                .statusCode(201)
                .extract()
                .jsonPath()
                .getList("items.id", String.class);

        AtomicReference<List<LeasedJob>> head = new AtomicReference<>(List.of());
        Wait.within(10_000, () -> {
            head.set(broker.take(queue, 5));
            return !head.get().isEmpty();
        }, "the FIFO head taken");
        List<LeasedJob> taken = head.get();
        assertEquals(1, taken.size(), "a FIFO partition hands out one job at a time");
        assertEquals(ids.get(0), taken.get(0).id().toString());
        assertTrue(broker.take(queue, 5).isEmpty(), "the next job waits while the head is in flight");

        broker.putBack(taken);
        List<LeasedJob> again = broker.take(queue, 5);
        assertEquals(1, again.size(), "the head put back is handed out at once");
        assertEquals(ids.get(0), again.get(0).id().toString());
    }
}
