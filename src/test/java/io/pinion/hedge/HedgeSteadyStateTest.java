package io.pinion.hedge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.helpers.test.UniAssertSubscriber;

/**
 * Many reads through a reader in virtual time, the primary's latency log-normal (median 4 ms, p99.9 about 19 ms):
 * the delay settles near the primary's p99.9, about one read in a thousand is hedged, and failed primary reads do
 * not move the delay.
 */
class HedgeSteadyStateTest {

    static final long MS = 1_000_000;

    final VirtualTimer timer = new VirtualTimer();
    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    final HedgedReader reader = new HedgedReader(
            "feed", "feed_unavailable", HedgeSettings.defaults().withWarmupShare(0), timer, registry);

    /** Runs one read to its end in virtual time. */
    HedgedResult<String> readToTheEnd(FakeSource<String> primary, FakeSource<String> standby) {
        var read = reader.readWithOutcome(primary, standby).subscribe().withSubscriber(UniAssertSubscriber.create());
        timer.runAll();
        return read.assertCompleted().getItem();
    }

    @Test
    void aboutOneReadInAThousandIsHedgedOnceTheDelayHasSettled() {
        Random random = new Random(11);
        FakeSource<String> primary = FakeSource.timed(timer,
                () -> (long) (4 * MS * Math.exp(0.5 * random.nextGaussian())), "p");
        FakeSource<String> standby = FakeSource.timed(timer, Duration.ofMillis(2), "s");
        for (int i = 0; i < 10_000; i++) {
            readToTheEnd(primary, standby);
        }
        double settled = reader.currentDelay().toNanos() / (double) MS;
        assertEquals(4 * Math.exp(0.5 * 3.09), settled, 2.0, "p99.9 of the log-normal is 18.8 ms");

        double hedgedCountedBefore = hedgedCounted();
        Map<HedgeOutcome, Integer> outcomes = new EnumMap<>(HedgeOutcome.class);
        for (int i = 0; i < 50_000; i++) {
            outcomes.merge(readToTheEnd(primary, standby).outcome(), 1, Integer::sum);
        }
        int hedged = outcomes.getOrDefault(HedgeOutcome.HEDGED_STANDBY_WON, 0)
                + outcomes.getOrDefault(HedgeOutcome.HEDGED_PRIMARY_WON, 0);
        assertTrue(hedged >= 25 && hedged <= 90, "hedged " + hedged + " of 50,000: " + outcomes);
        assertEquals(50_000 - hedged, outcomes.get(HedgeOutcome.PRIMARY));
        assertEquals(hedged, hedgedCounted() - hedgedCountedBefore);
        // A primary read cancelled for the standby counts as at least as slow as it was then; leaving such reads
        // out pulls the quantile down with every hedge (0.21% of reads hedged here instead of 0.10%).
        double after = reader.currentDelay().toNanos() / (double) MS;
        assertEquals(settled, after, 2.0, "the delay does not drift down as hedged reads are cancelled");
    }

    private double hedgedCounted() {
        return registry.get("pinion.hedge.reads").tag("outcome", "hedged_standby_won").counter().count()
                + registry.get("pinion.hedge.reads").tag("outcome", "hedged_primary_won").counter().count();
    }

    @Test
    void failedPrimaryReadsDoNotMoveTheDelay() {
        FakeSource<String> standby = FakeSource.timed(timer, Duration.ofMillis(2), "s");
        for (int i = 0; i < 2_000; i++) {
            var read = reader.readWithOutcome(() -> Uni.createFrom().<String>failure(new IOException("down")), standby)
                    .subscribe().withSubscriber(UniAssertSubscriber.create());
            timer.runAll();
            // failovers until the breaker opens, then the standby alone, with a failover probe every 100 ms
            assertTrue(read.awaitItem().getItem().outcome().fromStandby());
        }
        assertEquals(Duration.ofMillis(200), reader.currentDelay());
        assertEquals(2_000.0, registry.get("pinion.hedge.reads").tag("outcome", "failover").counter().count()
                + registry.get("pinion.hedge.reads").tag("outcome", "standby_only").counter().count());
    }
}
