package io.pinion.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.pinion.TestApi;
import io.pinion.Wait;
import io.pinion.queue.broker.DequeueBroker;
import io.pinion.queue.broker.LocalBroker;
import io.pinion.stack.StackTest;
import io.quarkus.test.junit.QuarkusTest;

/**
 * A queue's dequeue rate holds across the whole cluster: two brokers, each owning half of the partitions, hand
 * out the configured rate together (within 10% over 12 s) although their workers ask for far more; a rate of 0
 * pauses the queue.
 */
@QuarkusTest
@StackTest
class QueueRateLimitTest {

    private static final double RATE = 100;
    private static final long WINDOW_MS = 12_000;

    @Inject
    LocalBroker local;
    @Inject
    JobAcks acks;

    @Test
    void theRateHoldsClusterWideAndZeroPauses() throws InterruptedException {
        String name = Queues.create("rate", Map.of("partitions", 4, "rateLimit", RATE, "leaseMs", 60_000));
        Queue queue = local.context().registry().get(name).await().atMost(Duration.ofSeconds(5));
        DequeueBroker first = local.broker().orElseThrow();
        DequeueBroker second = TwoBrokers.startSecond(local.context());
        try {
            TwoBrokers.awaitEvenSplit(first, second, queue.id(), 4);
            List<Map<String, Object>> jobs = new ArrayList<>();
            for (int i = 0; i < 3_000; i++) {
                jobs.add(Map.of("body", "r" + i));
            }
            Queues.enqueue(TestApi.worker(), name, jobs);

            int[] served = new int[2];
            long start = System.currentTimeMillis();
            while (System.currentTimeMillis() - start < WINDOW_MS) {
                served[0] += drain(first, name);
                served[1] += drain(second, name);
                Wait.pause(Duration.ofMillis(5), "pacing: the brokers are asked every 5 ms over the window");
            }
            int total = served[0] + served[1];
            double expected = RATE * WINDOW_MS / 1000;
            assertTrue(
                    Math.abs(total - expected) <= expected * 0.10,
                    "handed out " + total + " jobs in " + WINDOW_MS / 1000 + " s (" + served[0] + " + " + served[1]
                            + "); the limit allows " + expected);
            assertTrue(
                    served[0] > expected * 0.3 && served[1] > expected * 0.3,
                    "both brokers served: " + served[0] + " / " + served[1]);

            TestApi.admin().as().body(Map.of("rateLimit", 0)).patch("/v1/queues/" + name).then().statusCode(200);
            Wait.pause(Duration.ofSeconds(2), "a refresh and a heartbeat later every broker applies it");
            int whilePaused = 0;
            long pauseStart = System.currentTimeMillis();
            while (System.currentTimeMillis() - pauseStart < 3_000) {
                whilePaused += drain(first, name) + drain(second, name);
                Wait.pause(Duration.ofMillis(20), "pacing: the brokers are asked every 20 ms while paused");
            }
            assertEquals(0, whilePaused, "a paused queue hands nothing out");
        } finally {
            second.stop().await().atMost(Duration.ofSeconds(10));
        }
    }

    private int drain(DequeueBroker broker, String name) {
        List<LeasedJob> jobs = broker.take(name, 100);
        if (!jobs.isEmpty()) {
            acks.ack(jobs.stream().map(job -> new Ack(job.id(), job.attempt(), job.lease(), true, null, null)).toList(),
                    queue -> io.smallrye.mutiny.Uni.createFrom().voidItem())
                    .await().atMost(Duration.ofSeconds(10));
        }
        return jobs.size();
    }
}
