package io.pinion.failure;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.pinion.Wait;
import io.vertx.core.Vertx;

/** An event loop held up by work makes the service busy; once it runs freely again, it is not. */
class EventLoopLagTest {

    @Test
    void aBlockedLoopIsSeenAndForgotten() throws Exception {
        Vertx vertx = Vertx.vertx();
        try {
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            EventLoopLag lag = new EventLoopLag(vertx, registry, 25);
            lag.start(null);
            // a fresh Vert.x on a loaded machine (class loading, the JIT) may fire its first ticks late
            assertTrue(settles(lag), "idle loops: " + lag.lagMs() + " ms");

            CountDownLatch blocked = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            vertx.getOrCreateContext().runOnContext(ignored -> {
                blocked.countDown();
                try {
                    release.await(5, TimeUnit.SECONDS); // a handler that holds its loop (what an overload amounts to)
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            blocked.await(5, TimeUnit.SECONDS);
            Wait.pause(Duration.ofMillis(300), "the loop held for 300 ms");
            assertTrue(lag.busy(), "a loop held for 300 ms: " + lag.lagMs() + " ms");
            assertTrue(registry.get("pinion.event.loop.lag.seconds").gauge().value() > 0.2);
            release.countDown();
            Wait.pause(Duration.ofMillis(300), "the late timer fires, and on-time ones after it");
            assertTrue(settles(lag), "released: " + lag.lagMs() + " ms");
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
        }
    }

    /** Whether the loops are seen as not busy within 2 s. */
    private static boolean settles(EventLoopLag lag) throws InterruptedException {
        return Wait.upTo(2_000, () -> !lag.busy());
    }
}
