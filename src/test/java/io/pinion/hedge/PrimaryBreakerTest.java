package io.pinion.hedge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import org.junit.jupiter.api.Test;

/**
 * After the primary lost {@value HedgedReader#BREAKER_THRESHOLD} reads in a row and none for 500 ms, reads go to the
 * standby alone (no waiting for the hedge delay); a hung standby still falls back to the race after the delay; every
 * 100 ms one read probes the primary, and the first the primary wins ends it.
 */
class PrimaryBreakerTest extends HedgedReaderFixture {

    @Test
    void aPrimaryThatKeepsLosingIsSkippedUntilAProbeWins() {
        for (int i = 0; i < HedgedReader.BREAKER_THRESHOLD; i++) {
            var read = read();
            primary.call(i).fail(new IOException("down"));
            standby.call(i).succeed("s");
            read.assertItem(new HedgedResult<>("s", HedgeOutcome.FAILOVER));
            if (i == HedgedReader.BREAKER_THRESHOLD - 2) {
                assertFalse(reader.primarySkipped(), "not before the primary has lost long enough");
                timer.advance(HedgedReader.BREAKER_MIN_OUTAGE);
            }
        }
        assertTrue(reader.primarySkipped());

        var alone = read();
        assertEquals(HedgedReader.BREAKER_THRESHOLD, primary.count(), "the primary is not asked");
        standby.call(HedgedReader.BREAKER_THRESHOLD).succeed("s");
        alone.assertItem(new HedgedResult<>("s", HedgeOutcome.STANDBY_ONLY));

        // a standby that hangs: after the hedge delay it is cancelled and the read races as usual
        var hung = read();
        int hungCall = HedgedReader.BREAKER_THRESHOLD + 1;
        timer.advance(DELAY);
        assertTrue(standby.call(hungCall).isCancelled());
        assertEquals(HedgedReader.BREAKER_THRESHOLD + 1, primary.count(), "the race asks the primary");
        primary.call(HedgedReader.BREAKER_THRESHOLD).fail(new IOException("still down"));
        standby.call(hungCall + 1).succeed("s");
        hung.assertItem(new HedgedResult<>("s", HedgeOutcome.FAILOVER));

        // the probe after 100 ms: the primary answers, and reads go to it again
        timer.advance(HedgedReader.BREAKER_PROBE);
        var probe = read();
        assertEquals(HedgedReader.BREAKER_THRESHOLD + 2, primary.count(), "the probe asks the primary");
        primary.call(HedgedReader.BREAKER_THRESHOLD + 1).succeed("p");
        probe.assertItem(new HedgedResult<>("p", HedgeOutcome.PRIMARY));
        assertFalse(reader.primarySkipped());
        var next = read();
        primary.call(HedgedReader.BREAKER_THRESHOLD + 2).succeed("p");
        next.assertItem(new HedgedResult<>("p", HedgeOutcome.PRIMARY));
        assertEquals(1.0, count("materialized_feed", HedgeOutcome.STANDBY_ONLY));
    }

    @Test
    void aPrimaryWinInBetweenResetsTheCount() {
        for (int i = 0; i < HedgedReader.BREAKER_THRESHOLD - 1; i++) {
            var read = read();
            primary.call(i).fail(new IOException("flaky"));
            standby.call(i).succeed("s");
        }
        var won = read();
        primary.call(HedgedReader.BREAKER_THRESHOLD - 1).succeed("p");
        won.assertItem(new HedgedResult<>("p", HedgeOutcome.PRIMARY));
        var read = read();
        primary.call(HedgedReader.BREAKER_THRESHOLD).fail(new IOException("flaky"));
        standby.call(HedgedReader.BREAKER_THRESHOLD - 1).succeed("s");
        assertFalse(reader.primarySkipped(), "19 losses, a win, 1 loss: not 20 in a row");
    }

    @Test
    void manyLossesWithinAShortStallDoNotSkipThePrimary() {
        for (int i = 0; i < 3 * HedgedReader.BREAKER_THRESHOLD; i++) {
            var read = read();
            primary.call(i).fail(new IOException("stalled"));
            standby.call(i).succeed("s");
            read.assertItem(new HedgedResult<>("s", HedgeOutcome.FAILOVER));
        }
        assertFalse(reader.primarySkipped(), "60 losses, but within 500 ms of the primary's last answer");
    }
}
