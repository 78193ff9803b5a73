package io.pinion.queue.broker.pacing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.junit.jupiter.api.Test;

/** The states of an owned partition's looks for due jobs: demand, idle waits, wake-ups, failures. */
class FetchPacingTest {

    private static final long POLL = 50;
    private static final long POLL_MAX = 1_000;
    private static final long WINDOW = 5_000;

    private static FetchPacing pacing() {
        return new FetchPacing(Duration.ofMillis(POLL), Duration.ofMillis(POLL_MAX), Duration.ofMillis(WINDOW));
    }

    @Test
    void jobsAreWantedWhileAWorkerAskedWithinTheWindowOrAlwaysWhenHandledInProcess() {
        FetchPacing fetches = pacing();
        assertFalse(fetches.hasDemand(10_000, 0), "nobody asked");
        fetches.demanded(10_000);
        assertTrue(fetches.hasDemand(10_000 + WINDOW - 1, 0));
        assertFalse(fetches.hasDemand(10_000 + WINDOW, 0), "the window passed");
        assertTrue(fetches.hasDemand(20_000, 19_000), "a worker asked the queue on this broker");
        fetches.alwaysDemand(true);
        assertTrue(fetches.hasDemand(1_000_000, 0), "a queue handled in this process always wants jobs");
    }

    @Test
    void emptyLooksWaitThePollIntervalOrDoubleItUpToTheMaximumWhenAlwaysWanted() {
        FetchPacing outside = pacing();
        long now = 0;
        for (int i = 0; i < 5; i++) {
            assertTrue(outside.due(now));
            assertFalse(outside.foundNothing(now, outside.wakes()));
            assertFalse(outside.due(now + POLL - 1));
            now += POLL;
        }
        FetchPacing inProcess = pacing();
        inProcess.alwaysDemand(true);
        long[] waits = new long[7];
        now = 0;
        for (int i = 0; i < waits.length; i++) {
            long before = now;
            inProcess.foundNothing(now, inProcess.wakes());
            while (!inProcess.due(now)) {
                now++;
            }
            waits[i] = now - before;
        }
        assertEquals("[50, 100, 200, 400, 800, 1000, 1000]", java.util.Arrays.toString(waits));
        inProcess.found();
        assertEquals(POLL, inProcess.idleWait(0), "jobs found: short waits again");
    }

    @Test
    void aWakeUpMakesTheNextLookDueAndALookThatMissedItLooksAgain() {
        FetchPacing fetches = pacing();
        fetches.alwaysDemand(true);
        for (int i = 0; i < 4; i++) {
            fetches.foundNothing(0, fetches.wakes());
        }
        assertFalse(fetches.due(100));
        fetches.woken();
        assertTrue(fetches.due(100), "enqueued through this instance: look now");
        assertEquals(POLL, fetches.idleWait(0));

        long before = fetches.wakes();
        fetches.woken(); // jobs enqueued while a look ran
        assertTrue(fetches.foundNothing(200, before), "the look may have read before them: look again at once");
        assertTrue(fetches.due(200));
    }

    @Test
    void aFailedLookWaitsFivePollIntervals() {
        FetchPacing fetches = pacing();
        fetches.failed(1_000);
        assertFalse(fetches.due(1_000 + 5 * POLL - 1));
        assertTrue(fetches.due(1_000 + 5 * POLL));
    }
}
