package io.pinion.hedge;

import java.time.Duration;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * Settings of the hedged readers made by {@link HedgedReaders} ({@code pinion.hedge.*}); see {@link HedgeSettings}
 * for what each does.
 */
@ConfigMapping(prefix = "pinion.hedge")
public interface HedgeConfig {

    /**
     * Quantile of the primary's recent latencies used as the hedge delay: 0.999 hedges about one read in a
     * thousand in steady state.
     */
    @WithDefault("0.999")
    double quantile();

    /** Shortest hedge delay, whatever the primary's latency. Set {@code floor = ceiling} for a fixed delay. */
    @WithDefault("5ms")
    Duration floor();

    /** Longest hedge delay: a primary that hangs costs at most this before the standby is asked. */
    @WithDefault("200ms")
    Duration ceiling();

    /** Hedge delay until {@code min-samples} primary reads were measured; the ceiling when not set. */
    Optional<Duration> initialDelay();

    /** Number of recent successful primary reads the latency quantile is taken from (forgotten a tenth at a time). */
    @WithDefault("10000")
    int window();

    /** Measured primary reads needed before the delay adapts. */
    @WithDefault("1000")
    int minSamples();

    /** Share of reads also sent to the standby, their answers dropped, to keep its caches warm (0 for none). */
    @WithDefault("0.01")
    double warmupShare();
}
