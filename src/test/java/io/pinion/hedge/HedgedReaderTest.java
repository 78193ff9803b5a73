package io.pinion.hedge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.helpers.test.UniAssertSubscriber;

/**
 * A hedged read's races, with fake sources completed by hand and virtual time: who is asked when, who wins, what is
 * cancelled, and what is counted.
 */
class HedgedReaderTest extends HedgedReaderFixture {

    @Test
    void aFastPrimaryAnswersAloneAndTheHedgeIsCancelled() {
        var read = read();
        timer.advance(Duration.ofMillis(5));
        primary.call(0).succeed("p");

        read.assertItem(new HedgedResult<>("p", HedgeOutcome.PRIMARY));
        assertEquals(0, timer.pending());
        timer.advance(Duration.ofSeconds(1));
        assertEquals(0, standby.count());
        countedOnlyAs(HedgeOutcome.PRIMARY);
    }

    @Test
    void aSlowPrimaryIsHedgedAtTheDelayAndCancelledWhenTheStandbyWins() {
        var read = read();
        timer.advance(DELAY.minusNanos(1));
        assertEquals(0, standby.count());
        timer.advance(Duration.ofNanos(1));
        assertEquals(1, standby.count());
        read.assertNotTerminated();

        timer.advance(Duration.ofMillis(3));
        standby.call(0).succeed("s");

        read.assertItem(new HedgedResult<>("s", HedgeOutcome.HEDGED_STANDBY_WON));
        assertTrue(primary.call(0).isCancelled());
        assertFalse(standby.call(0).isCancelled());
        countedOnlyAs(HedgeOutcome.HEDGED_STANDBY_WON);
    }

    @Test
    void aPrimaryAnsweringAfterTheDelayBeatsASlowerStandbyWhichIsCancelled() {
        var read = read();
        timer.advance(DELAY);
        assertEquals(1, standby.count());
        timer.advance(Duration.ofMillis(10));
        primary.call(0).succeed("p");

        read.assertItem(new HedgedResult<>("p", HedgeOutcome.HEDGED_PRIMARY_WON));
        assertTrue(standby.call(0).isCancelled());
        assertFalse(primary.call(0).isCancelled());
        countedOnlyAs(HedgeOutcome.HEDGED_PRIMARY_WON);
    }

    @Test
    void aStandbyFailingAfterAHedgeLeavesThePrimaryToAnswer() {
        var read = read();
        timer.advance(DELAY);
        standby.call(0).fail(new IOException("standby down"));
        primary.call(0).succeed("p");

        read.assertItem(new HedgedResult<>("p", HedgeOutcome.HEDGED_PRIMARY_WON));
    }

    @Test
    void cancellingTheReadCancelsThePrimaryAndTheHedge() {
        var read = read();
        read.cancel();

        assertTrue(primary.call(0).isCancelled());
        assertEquals(0, timer.pending());
        timer.advance(Duration.ofSeconds(1));
        assertEquals(0, standby.count());
    }

    @Test
    void cancellingAHedgedReadCancelsBothSides() {
        var read = read();
        timer.advance(DELAY);
        read.cancel();

        assertTrue(primary.call(0).isCancelled());
        assertTrue(standby.call(0).isCancelled());
        assertEquals(
                0.0,
                registry.get("pinion.hedge.reads").counters().stream()
                        .mapToDouble(c -> c.count())
                        .sum());
    }

    @Test
    void aPrimaryAnsweringAtSubscriptionNeedsNoTimerAndTheSimpleReadGivesTheValue() {
        var read = reader.read(() -> Uni.createFrom().item("now"), standby)
                .subscribe().withSubscriber(UniAssertSubscriber.create());

        read.assertItem("now");
        assertEquals(0, timer.pending());
        assertEquals(0, standby.count());
    }

    @Test
    void readersWithDifferentNamesCountApartAndShowTheirDelay() {
        HedgedReader other = reader("user_profile");
        reader.read(() -> Uni.createFrom().item("a"), standby).await().indefinitely();
        other.read(() -> Uni.createFrom().failure(new IOException("down")),
                () -> Uni.createFrom().item("b")).await().indefinitely();

        assertEquals(1.0, count("materialized_feed", HedgeOutcome.PRIMARY));
        assertEquals(0.0, count("materialized_feed", HedgeOutcome.FAILOVER));
        assertEquals(1.0, count("user_profile", HedgeOutcome.FAILOVER));
        assertEquals(0.0, count("user_profile", HedgeOutcome.PRIMARY));
        assertEquals(0.020,
                registry.get("pinion.hedge.delay.seconds").tag("name", "user_profile").gauge().value(), 1e-9);
        assertEquals(
                0.0,
                registry.get("pinion.hedge.warmup.reads")
                        .tag("name", "materialized_feed")
                        .counter()
                        .count());
    }
}
