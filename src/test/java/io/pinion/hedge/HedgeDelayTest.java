package io.pinion.hedge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.Arrays;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The adaptive hedge delay: initial delay, convergence to the quantile, floor and ceiling, following changes. */
class HedgeDelayTest {

    static final long MS = 1_000_000;

    static HedgeSettings settings(double quantile, long floorMs, long ceilingMs) {
        return new HedgeSettings(quantile, Duration.ofMillis(floorMs), Duration.ofMillis(ceilingMs),
                Duration.ofMillis(ceilingMs), 10_000, 1_000, 0.0);
    }

    /** Latencies around 4 ms with a long tail (log-normal, sigma 0.5: p99.9 about 19 ms), in nanoseconds. */
    static long[] logNormal(int n, long seed, double medianMs) {
        Random random = new Random(seed);
        long[] latencies = new long[n];
        for (int i = 0; i < n; i++) {
            latencies[i] = (long) (medianMs * MS * Math.exp(0.5 * random.nextGaussian()));
        }
        return latencies;
    }

    static double quantileMs(long[] latencies, int from, double quantile) {
        long[] recent = Arrays.copyOfRange(latencies, from, latencies.length);
        Arrays.sort(recent);
        return recent[(int) Math.ceil(quantile * recent.length) - 1] / (double) MS;
    }

    static double ms(HedgeDelay delay) {
        return delay.nanos() / (double) MS;
    }

    @Test
    void theCeilingHoldsUntilEnoughReadsWereMeasured() {
        HedgeDelay delay = new HedgeDelay(HedgeSettings.defaults());
        assertEquals(200.0, ms(delay));
        for (int i = 0; i < 999; i++) {
            delay.record(10 * MS);
        }
        delay.refresh();
        assertEquals(200.0, ms(delay));
        delay.record(10 * MS);
        delay.refresh();
        assertEquals(10.0, ms(delay), 10 * 0.07);
    }

    @ParameterizedTest
    @ValueSource(doubles = { 0.5, 0.99, 0.999 })
    void theDelayConvergesToTheConfiguredQuantileOfRecentLatencies(double quantile) {
        HedgeDelay delay = new HedgeDelay(settings(quantile, 1, 1_000));
        long[] latencies = logNormal(30_000, 7, 4);
        for (long latency : latencies) { // 30 slices: the window ends holding exactly the last 9,000
            delay.record(latency);
        }
        delay.refresh();
        double expected = quantileMs(latencies, 30_000 - 9_000, quantile);
        assertEquals(expected, ms(delay), expected * 0.03, "p" + quantile * 100);
    }

    @Test
    void theDelayStaysWithinFloorAndCeiling() {
        HedgeDelay fast = new HedgeDelay(HedgeSettings.defaults());
        HedgeDelay slow = new HedgeDelay(HedgeSettings.defaults());
        for (int i = 0; i < 5_000; i++) {
            fast.record(MS / 2);
            slow.record(2_000 * MS);
        }
        assertEquals(5.0, ms(fast));
        assertEquals(200.0, ms(slow));
    }

    @Test
    void theDelayFollowsTheLatencyWhenItChanges() {
        HedgeDelay delay = new HedgeDelay(settings(0.999, 1, 1_000));
        long[] before = logNormal(10_000, 1, 20);
        long[] after = logNormal(10_000, 2, 4);
        Arrays.stream(before).forEach(delay::record);
        delay.refresh();
        assertEquals(quantileMs(before, 1_000, 0.999), ms(delay), quantileMs(before, 1_000, 0.999) * 0.03);
        Arrays.stream(after).forEach(delay::record);
        delay.refresh();
        assertEquals(quantileMs(after, 1_000, 0.999), ms(delay), quantileMs(after, 1_000, 0.999) * 0.03);
    }

    @Test
    void equalFloorAndCeilingMakeAFixedDelay() {
        HedgeDelay delay = new HedgeDelay(new HedgeSettings(0.999, Duration.ofMillis(30), Duration.ofMillis(30),
                Duration.ofMillis(200), 10_000, 1_000, 0.0));
        assertEquals(30.0, ms(delay));
        for (int i = 0; i < 2_000; i++) {
            delay.record(2 * MS);
        }
        assertEquals(30.0, ms(delay));
    }

    @Test
    void settingsOutOfRangeAreRefused() {
        Duration ms5 = Duration.ofMillis(5);
        Duration ms200 = Duration.ofMillis(200);
        assertThrows(
                IllegalArgumentException.class, () -> new HedgeSettings(1.0, ms5, ms200, ms200, 10_000, 1_000, 0.01));
        assertThrows(
                IllegalArgumentException.class, () -> new HedgeSettings(0.999, ms200, ms5, ms200, 10_000, 1_000, 0.01));
        assertThrows(
                IllegalArgumentException.class, () -> new HedgeSettings(0.999, ms5, ms200, ms200, 1_000, 1_000, 0.01));
        assertThrows(
                IllegalArgumentException.class, () -> new HedgeSettings(0.999, ms5, ms200, ms200, 10_000, 1_000, 1.5));
    }
}
