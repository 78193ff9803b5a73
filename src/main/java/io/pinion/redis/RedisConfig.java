package io.pinion.redis;

import java.time.Duration;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * How the service connects to the Redis instances named in the topology.
 */
@ConfigMapping(prefix = "pinion.redis")
public interface RedisConfig {

    /** Password for every instance ({@code AUTH}); none by default. */
    Optional<String> password();

    /** Maximum connections per instance. */
    @WithDefault("16")
    int poolSize();

    /** Commands that may wait for a connection per instance before failing fast. */
    @WithDefault("2048")
    int maxWaitQueue();

    /** Time allowed to open a connection. */
    @WithDefault("2s")
    Duration connectTimeout();
}
