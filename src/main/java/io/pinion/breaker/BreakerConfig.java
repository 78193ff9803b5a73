package io.pinion.breaker;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * {@code pinion.breaker.*}: the breakers in front of each MySQL host and Redis instance.
 */
@ConfigMapping(prefix = "pinion.breaker")
public interface BreakerConfig {

    /** How long a backend seen down is not called before a trial call; requests that need it get a 503 at once. */
    @WithDefault("1s")
    Duration openFor();

    /**
     * Calls in a row that got no answer in time before the breaker opens (a call that cannot reach the backend at all
     * opens it at once): one slow statement on a busy host does not take the host out.
     */
    @WithDefault("3")
    int timeoutsToOpen();
}
