package io.pinion.feed;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.BooleanSupplier;

/**
 * Waits for the job queue to have done its part.
 */
final class Eventually {

    /**
     * How long a feed job may take: a job that fails is retried after 0.5, 1, 2, 4, 8 and then every 10 s, and an
     * HBase cluster restarted by an earlier test can refuse writes for a while as its regions come back.
     */
    static final long JOBS_MS = 60_000;

    private Eventually() {
    }

    static void within(long millis, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.currentTimeMillis() + millis;
        while (!condition.getAsBoolean()) {
            assertTrue(System.currentTimeMillis() < deadline, "not within " + millis + " ms");
            Thread.sleep(100);
        }
    }
}
