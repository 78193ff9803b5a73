package io.pinion.hedge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.Random;

import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.helpers.test.UniAssertSubscriber;

/** Warm-up reads: their share, and that their answers never reach the caller nor hold the read up. */
class HedgeWarmupTest {

    final VirtualTimer timer = new VirtualTimer();
    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    final FakeSource<String> standby = FakeSource.manual();

    HedgedReader reader(double share, Random random) {
        return new HedgedReader("feed", "feed_unavailable", HedgeSettings.defaults().withWarmupShare(share), timer,
                registry, random::nextDouble);
    }

    double warmupsCounted() {
        return registry.get("pinion.hedge.warmup.reads").tag("name", "feed").counter().count();
    }

    @Test
    void aboutOneReadInAHundredAlsoGoesToTheStandbyAndItsAnswerIsDropped() {
        HedgedReader reader = reader(0.01, new Random(42));
        for (int i = 0; i < 10_000; i++) {
            var read = reader.readWithOutcome(() -> Uni.createFrom().item("primary"), standby)
                    .subscribe().withSubscriber(UniAssertSubscriber.create());
            read.assertItem(new HedgedResult<>("primary", HedgeOutcome.PRIMARY));
        }
        assertTrue(standby.count() >= 50 && standby.count() <= 150, standby.count() + " warm-up reads of 10,000");
        assertEquals(standby.count(), warmupsCounted());
        for (int i = 0; i < standby.count(); i++) {
            if (i % 2 == 0) {
                standby.call(i).succeed("standby");
            } else {
                standby.call(i).fail(new IOException("standby down"));
            }
        }
        assertEquals(0, standby.cancelled());
        assertEquals(10_000.0, registry.get("pinion.hedge.reads").tag("outcome", "primary").counter().count());
    }

    @Test
    void noShareMeansNoWarmUpRead() {
        HedgedReader reader = reader(0.0, new Random(42));
        for (int i = 0; i < 1_000; i++) {
            reader.read(() -> Uni.createFrom().item("primary"), standby).await().indefinitely();
        }
        assertEquals(0, standby.count());
        assertEquals(0.0, warmupsCounted());
    }

    @Test
    void aWarmUpAnswerArrivingFirstIsDroppedAndTheReadWaitsForThePrimary() {
        HedgedReader reader = reader(1.0, new Random(42));
        FakeSource<String> primary = FakeSource.manual();
        var read = reader.readWithOutcome(primary, standby).subscribe().withSubscriber(UniAssertSubscriber.create());
        assertEquals(1, standby.count());

        timer.advance(Duration.ofMillis(1));
        standby.call(0).succeed("standby");
        read.assertNotTerminated();
        timer.advance(Duration.ofMillis(1));
        primary.call(0).succeed("primary");

        read.assertItem(new HedgedResult<>("primary", HedgeOutcome.PRIMARY));
        assertEquals(1, standby.count(), "no hedge: the primary answered within the delay");
    }

    @Test
    void aPendingWarmUpReadNeitherHoldsUpNorIsCancelledByTheRead() {
        HedgedReader reader = reader(1.0, new Random(42));
        FakeSource<String> primary = FakeSource.manual();
        var read = reader.readWithOutcome(primary, standby).subscribe().withSubscriber(UniAssertSubscriber.create());
        primary.call(0).succeed("primary");

        read.assertItem(new HedgedResult<>("primary", HedgeOutcome.PRIMARY));
        assertFalse(standby.call(0).isCancelled());
        assertEquals(1.0, warmupsCounted());
    }
}
