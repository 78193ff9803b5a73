package io.pinion.feed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

class FunnelTallyTest {

    private static final long NOW = 1_780_000_000_000L;

    @Test
    void countsOfOneSeriesInOneMinuteAreOneEntry() {
        FunnelTally tally = new FunnelTally(true, 1 << 20);
        FunnelPin pin = new FunnelPin(1, 2, 3);
        for (int i = 0; i < 1_000; i++) {
            tally.add(pin, FeedFunnel.Stage.SHOWN, FeedSource.FOLLOWING, FeedFunnel.Reason.NONE, 1, NOW + i);
        }
        tally.add(pin, FeedFunnel.Stage.SHOWN, FeedSource.FOLLOWING, FeedFunnel.Reason.NONE, 1, NOW + 60_000);
        List<FunnelTally.Count> counts = tally.drain(100);
        assertEquals(2, counts.size(), "one entry per minute");
        assertEquals(1_001, counts.stream().mapToLong(FunnelTally.Count::n).sum());
        assertEquals(0, tally.size());
    }

    @Test
    void aFullTallyDropsNewEntriesCountsThemAndCallsForAFlushOnce() {
        FunnelTally tally = new FunnelTally(true, 10L * FunnelTally.ENTRY_BYTES);
        AtomicInteger flushes = new AtomicInteger();
        tally.onFull(flushes::incrementAndGet);
        for (long pin = 1; pin <= 15; pin++) {
            tally.add(new FunnelPin(pin, 0, 0), FeedFunnel.Stage.CREATED, null, FeedFunnel.Reason.NONE, 2, NOW);
        }
        tally.add(new FunnelPin(3, 0, 0), FeedFunnel.Stage.CREATED, null, FeedFunnel.Reason.NONE, 1, NOW);
        assertEquals(10, tally.size());
        assertEquals(1, flushes.get(), "one call while full");
        assertEquals(10, tally.takeDropped(), "5 entries of 2 found no room; an existing entry still counts");
        assertEquals(0, tally.takeDropped());
        assertEquals(21, tally.drain(100).stream().mapToLong(FunnelTally.Count::n).sum());
        tally.add(new FunnelPin(99, 0, 0), FeedFunnel.Stage.CREATED, null, FeedFunnel.Reason.NONE, 1, NOW);
        assertEquals(1, tally.size(), "room again after a drain");
    }

    @Test
    void nothingIsCountedForNoEntityOrWhenTurnedOff() {
        FunnelTally tally = new FunnelTally(true, 1 << 20);
        tally.add(new FunnelPin(0, 0, 0), FeedFunnel.Stage.CREATED, null, FeedFunnel.Reason.NONE, 1, NOW);
        tally.add(null, FeedFunnel.Stage.CREATED, null, FeedFunnel.Reason.NONE, 1, NOW);
        assertEquals(0, tally.size());
        FunnelTally off = new FunnelTally(false, 1 << 20);
        off.add(new FunnelPin(1, 2, 3), FeedFunnel.Stage.CREATED, null, FeedFunnel.Reason.NONE, 1, NOW);
        assertEquals(0, off.size());
    }

    @Test
    void countsAddedWhileDrainingAreTakenByALaterDrain() throws Exception {
        FunnelTally tally = new FunnelTally(true, 1 << 24);
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> adders = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int thread = t;
                adders.add(threads.submit(() -> {
                    for (int i = 0; i < 50_000; i++) {
                        tally.add(new FunnelPin(1 + i % 200, 7, 9), FeedFunnel.Stage.CANDIDATE, FeedSource.FOLLOWING,
                                FeedFunnel.Reason.POOL, 1, NOW + thread);
                    }
                }));
            }
            long drained = 0;
            while (!adders.stream().allMatch(Future::isDone)) {
                drained += tally.drain(50).stream().mapToLong(FunnelTally.Count::n).sum();
            }
            for (Future<?> adder : adders) {
                adder.get();
            }
            drained += tally.drain(Integer.MAX_VALUE).stream().mapToLong(FunnelTally.Count::n).sum();
            assertEquals(200_000, drained, "every count drained once");
            assertTrue(tally.size() == 0);
        } finally {
            threads.shutdownNow();
        }
    }
}
