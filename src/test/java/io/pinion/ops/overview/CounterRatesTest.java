package io.pinion.ops.overview;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;

import org.junit.jupiter.api.Test;

class CounterRatesTest {

    private static final long SECOND = 1_000_000_000L;

    private final CounterRates<String> rates = new CounterRates<>();

    @Test
    void theFirstCallHasNoRatesYet() {
        var first = rates.offer(0, Map.of("a", 100.0));
        assertEquals(0, first.seconds());
        assertEquals(0, first.perSecond("a"));
    }

    @Test
    void ratesRunBetweenSamplesTakenAtLeastTwoSecondsApart() {
        rates.offer(0, Map.of("a", 100.0));
        var tooSoon = rates.offer(SECOND, Map.of("a", 150.0));
        assertEquals(0, tooSoon.perSecond("a"), "a call within 2 s of the last sample takes no new one");
        var later = rates.offer(3 * SECOND, Map.of("a", 400.0));
        assertEquals(3, later.seconds());
        assertEquals(100, later.perSecond("a"));
        var between = rates.offer(4 * SECOND, Map.of("a", 1_000.0));
        assertEquals(100, between.perSecond("a"), "rates stay those of the samples until the next one");
    }

    @Test
    void theWindowSlidesToAboutTenSeconds() {
        for (int second = 0; second <= 30; second += 3) {
            rates.offer(second * SECOND, Map.of("a", second < 15 ? 0.0 : 10.0 * (second - 15)));
        }
        var last = rates.offer(30 * SECOND, Map.of("a", 150.0));
        assertEquals(12, last.seconds(), "from the newest sample at least 10 s old (18 s) to 30 s");
        assertEquals(10, last.perSecond("a"));
    }

    @Test
    void aSampleFromBeforeAPauseGivesWayToNewerOnes() {
        rates.offer(0, Map.of("a", 0.0));
        var afterPause = rates.offer(60 * SECOND, Map.of("a", 600.0));
        assertEquals(60, afterPause.seconds(), "the only rate there is: over the pause");
        rates.offer(63 * SECOND, Map.of("a", 630.0));
        var next = rates.offer(66 * SECOND, Map.of("a", 690.0));
        assertEquals(6, next.seconds(), "the sample from before the pause is dropped");
        assertEquals(15, next.perSecond("a"));
    }

    @Test
    void countsThatAppearLaterStartedAtZero() {
        rates.offer(0, Map.of("a", 1.0));
        var next = rates.offer(2 * SECOND, Map.of("a", 1.0, "b", 8.0));
        assertEquals(4, next.perSecond("b"));
        assertEquals(0, next.perSecond("c"));
    }
}
