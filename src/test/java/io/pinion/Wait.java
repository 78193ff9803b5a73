package io.pinion;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * How tests wait for something that happens in the background (a job, a failover, a replica catching up): the
 * condition is polled every 50 ms until it holds, and the test fails once the time is up. One copy, so every test
 * waits alike and says alike what it waited for. A test that needs time itself to pass, with nothing to poll, says
 * why through {@link #pause}.
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
        within(millis, condition, () -> what);
    }

    /**
     * As {@link #within(long, BooleanSupplier, String)}, with {@code what} made only on failure: it can name the last
     * value the condition saw (a status, a body, a count).
     */
    public static void within(long millis, BooleanSupplier condition, Supplier<String> what)
            throws InterruptedException {
        within(millis, Duration.ofMillis(POLL_MS), condition, what);
    }

    /**
     * As {@link #within(long, BooleanSupplier, Supplier)}, polling {@code every} instead of 50 ms: more often for tests
     * that measure how soon the condition came to hold, to that resolution; less often where each look does something
     * of its own (a home-feed read is a visit).
     */
    public static void within(long millis, Duration every, BooleanSupplier condition, Supplier<String> what)
            throws InterruptedException {
        assertTrue(holds(millis, every.toMillis(), condition), () -> what.get() + ": not within " + millis + " ms");
    }

    /**
     * Polls as {@link #within(long, BooleanSupplier)} does but does not fail: whether the condition held within
     * {@code millis}. For tests that go on either way and assert afterwards what they assert, or that wait only so
     * that the next test finds the service settled.
     */
    public static boolean upTo(long millis, BooleanSupplier condition) throws InterruptedException {
        return holds(millis, POLL_MS, condition);
    }

    /**
     * For tests that need time itself to pass (a lease or a TTL to expire, a rate limit to refill, nothing to happen
     * within a while): there is nothing to poll, so it just sleeps. {@code why} says what must pass.
     */
    public static void pause(Duration duration, String why) throws InterruptedException {
        Thread.sleep(duration.toMillis(), duration.toNanosPart() % 1_000_000);
    }

    private static boolean holds(long millis, long everyMs, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.currentTimeMillis() + millis;
        while (!condition.getAsBoolean()) {
            if (System.currentTimeMillis() >= deadline) {
                return false;
            }
            Thread.sleep(everyMs);
        }
        return true;
    }
}
