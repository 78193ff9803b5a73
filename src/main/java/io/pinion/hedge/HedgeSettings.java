package io.pinion.hedge;

import java.time.Duration;

/**
 * How a {@link HedgedReader} hedges.
 *
 * @param quantile quantile of the primary's recent latencies used as the hedge delay, in (0, 1)
 * @param floor shortest hedge delay
 * @param ceiling longest hedge delay; {@code floor == ceiling} gives a fixed delay
 * @param initialDelay delay in force until {@code minSamples} primary reads were measured
 * @param window recent successful primary reads the quantile is taken from
 * @param minSamples measured primary reads needed before the delay adapts, at most 90% of the window (the window
 *        forgets a tenth at a time)
 * @param warmupShare share of reads also sent to the standby with their answers dropped, in [0, 1]
 */
public record HedgeSettings(double quantile, Duration floor, Duration ceiling, Duration initialDelay, int window,
        int minSamples, double warmupShare) {

    public HedgeSettings {
        if (!(quantile > 0 && quantile < 1)) {
            throw new IllegalArgumentException("hedge quantile must be in (0, 1): " + quantile);
        }
        if (floor.isNegative() || floor.isZero() || ceiling.compareTo(floor) < 0) {
            throw new IllegalArgumentException("hedge delays need 0 < floor <= ceiling: " + floor + ", " + ceiling);
        }
        if (initialDelay.isNegative()) {
            throw new IllegalArgumentException("hedge initial delay must not be negative: " + initialDelay);
        }
        if (window < LatencyWindow.SLICES || minSamples < 1 || minSamples > window - window / LatencyWindow.SLICES) {
            throw new IllegalArgumentException("hedge window must be >= " + LatencyWindow.SLICES
                    + " and min-samples in [1, 90% of the window]: " + window + ", " + minSamples);
        }
        if (!(warmupShare >= 0 && warmupShare <= 1)) {
            throw new IllegalArgumentException("warm-up share must be in [0, 1]: " + warmupShare);
        }
    }

    /** The defaults of {@link HedgeConfig}: p99.9 within 5–200 ms over 10,000 reads, 1% warm-up reads. */
    public static HedgeSettings defaults() {
        return new HedgeSettings(0.999, Duration.ofMillis(5), Duration.ofMillis(200), Duration.ofMillis(200), 10_000,
                1_000, 0.01);
    }

    public static HedgeSettings of(HedgeConfig config) {
        return new HedgeSettings(config.quantile(), config.floor(), config.ceiling(),
                config.initialDelay().orElse(config.ceiling()), config.window(), config.minSamples(),
                config.warmupShare());
    }

    /** The same settings with another warm-up share. */
    public HedgeSettings withWarmupShare(double share) {
        return new HedgeSettings(quantile, floor, ceiling, initialDelay, window, minSamples, share);
    }
}
