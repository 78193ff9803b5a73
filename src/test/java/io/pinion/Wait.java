package io.pinion;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * How tests wait for something that happens in the background (a job, a failover, a replica catching up): the
 * condition is polled every 50 ms until it holds, and the test fails once the time is up. One copy, so every test
 * waits alike and says alike what it waited for.
 */
public final class Wait {

    private static final long POLL_MS = 50;

    private Wait() {
    }

    public static void within(Duration limit, BooleanSupplier condition) throws InterruptedException {
        within(limit.toMillis(), condition, "the condition");
    }

    public static void within(long millis, BooleanSupplier condition) throws InterruptedException {
        within(millis, condition, "the condition");
    }

    /** {@code what} names the condition in the failure: "{what}: not within {millis} ms". */
    public static void within(long millis, BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.currentTimeMillis() + millis;
        while (!condition.getAsBoolean()) {
            assertTrue(System.currentTimeMillis() < deadline, what + ": not within " + millis + " ms");
            Thread.sleep(POLL_MS);
        }
    }

    /**
     * For tests that need time itself to pass (a lease or a TTL to expire, a rate limit to refill, nothing to happen
     * within a while): there is nothing to poll, so it just sleeps. {@code why} says what must pass.
     */
    public static void pause(Duration duration, String why) throws InterruptedException {
        Thread.sleep(duration.toMillis());
    }
}
