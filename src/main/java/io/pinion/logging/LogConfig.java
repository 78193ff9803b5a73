package io.pinion.logging;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * How the console log is written.
 */
@ConfigMapping(prefix = "pinion.log")
public interface LogConfig {

    /** The console's line format. */
    enum Format {
        /** {@code quarkus.log.console.format}'s readable lines: local runs, dev mode and tests. */
        TEXT,
        /** One JSON object a line ({@link JsonLogFormatter}): the container images set it. */
        JSON
    }

    /**
     * {@code text} (the default) or {@code json}; {@code PINION_LOG_FORMAT} in the environment. The container images
     * set {@code json}; {@code bin/run} leaves the readable lines.
     */
    @WithDefault("text")
    Format format();
}
