package io.pinion.queue.broker.pacing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/** The states of an owned partition's sweeps: due, idle backing off, back to the base interval. */
class SweepPacingTest {

    private static final long BASE = 250;

    @Test
    void aNewPartitionIsSweptAtOnceAndThenEveryInterval() {
        SweepPacing sweeps = new SweepPacing(Duration.ofMillis(BASE));
        assertTrue(sweeps.due(0), "swept at once");
        assertTrue(sweeps.start(), "a partition starts as if it had just leased");
        sweeps.swept(1_000, 0, true);
        assertEquals(BASE, sweeps.intervalMs());
        assertFalse(sweeps.due(1_000 + BASE - 1));
        assertTrue(sweeps.due(1_000 + BASE));
    }

    @Test
    void anIdlePartitionIsSweptLessAndLessOftenUpToTwentyIntervals() {
        SweepPacing sweeps = new SweepPacing(Duration.ofMillis(BASE));
        List<Long> intervals = new ArrayList<>();
        long now = 0;
        for (int i = 0; i < 8; i++) {
            assertTrue(sweeps.due(now));
            boolean leased = sweeps.start();
            sweeps.swept(now, 0, leased);
            intervals.add(sweeps.intervalMs());
            now += sweeps.intervalMs();
        }
        // the first sweep still counts the start as leased; then idle: doubling, capped at 20 intervals
        assertEquals(
                List.of(BASE, 2 * BASE, 4 * BASE, 8 * BASE, 16 * BASE, 20 * BASE, 20 * BASE, 20 * BASE), intervals);
    }

    @Test
    void leasingOrFindingExpiredLeasesBringsTheBaseIntervalBack() {
        SweepPacing sweeps = new SweepPacing(Duration.ofMillis(BASE));
        long now = 0;
        for (int i = 0; i < 6; i++) {
            sweeps.swept(now, 0, sweeps.start());
            now += sweeps.intervalMs();
        }
        assertEquals(20 * BASE, sweeps.intervalMs());

        sweeps.leased();
        sweeps.swept(now, 0, sweeps.start());
        assertEquals(BASE, sweeps.intervalMs(), "jobs leased since the last sweep");
        sweeps.swept(now, 0, sweeps.start());
        assertEquals(2 * BASE, sweeps.intervalMs(), "idle again");
        sweeps.swept(now, 3, sweeps.start());
        assertEquals(BASE, sweeps.intervalMs(), "leases found expired");
        assertFalse(sweeps.start(), "a sweep takes the leased mark");
    }
}
