package io.pinion.topology;

import java.time.Duration;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * Where the topology comes from.
 */
@ConfigMapping(prefix = "pinion.topology")
public interface TopologyConfig {

    /**
     * Path of the topology JSON file. When absent, the topology bundled on the class path
     * ({@link #resource()}) is used.
     */
    Optional<String> file();

    /** How often the topology file is checked for changes (only when {@link #file()} is set). */
    @WithDefault("5s")
    Duration watchInterval();

    /** Class-path resource holding the default topology, used when no file is configured. */
    @WithDefault("topology/local.json")
    String resource();
}
