package io.pinion.topology;

import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * Where the topology's seed comes from (the topology itself lives in ZooKeeper).
 */
@ConfigMapping(prefix = "pinion.topology")
public interface TopologyConfig {

    /**
     * Path of the topology JSON file: the seed of the document in ZooKeeper when there is none yet, and a copy of
     * the version in force, rewritten on every change (for {@code bin/stack}, which opens the masters it names).
     * When absent, the topology bundled on the class path ({@link #resource()}) is the seed.
     */
    Optional<String> file();

    /** Class-path resource holding the default topology, used when no file is configured. */
    @WithDefault("topology/local.json")
    String resource();
}
