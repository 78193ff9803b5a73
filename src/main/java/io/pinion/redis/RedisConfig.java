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

    /**
     * With Sentinel (the topology's {@code redis.sentinels}), how long the master's address the sentinels gave is used
     * before they are asked again: the longest new connections may go on trying a master that failed over.
     */
    @WithDefault("1s")
    Duration sentinelRefresh();

    /** Time allowed to open a connection. */
    @WithDefault("2s")
    Duration connectTimeout();
}
