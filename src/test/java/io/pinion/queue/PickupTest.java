package io.pinion.queue;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.pinion.TestApi.TestUser;
import io.pinion.TestApi;
import io.pinion.Wait;
import io.pinion.stack.StackTest;
import io.quarkus.test.junit.QuarkusTest;

/**
 * An idle queue handled in-app polls less and less often (up to {@code pinion.queue.poll-interval-max}, 1 s), yet a
 * job enqueued through this instance is handled at once: the enqueue wakes the partition that owns it.
 */
@QuarkusTest
@StackTest
class PickupTest {

    @Test
    void aJobEnqueuedToAnIdleQueueIsHandledAtOnce() throws InterruptedException {
        TestUser worker = TestApi.worker();
        Queues.grantToWorker("pickup-test");
        for (int i = 0; i < 3; i++) {
            // idle long enough for the partition's polls to be a second apart (200, 400, 800, 1,000 ms)
            Wait.pause(Duration.ofMillis(1_800), "the queue idles until its polls are a second apart");
            String body = "pickup-" + UUID.randomUUID();
            long sent = System.currentTimeMillis();
            worker.as().body(Map.of("body", body)).post("/v1/queues/pickup-test/jobs").then().statusCode(201);
            Wait.within(10_000, () -> RecordingHandlers.Pickup.HANDLED_AT.containsKey(body), "the job handled");
            long took = RecordingHandlers.Pickup.HANDLED_AT.get(body) - sent;
            assertTrue(took < 400, "handled " + took + " ms after its enqueue was sent; the idle poll is 1 s apart");
        }
    }
}
