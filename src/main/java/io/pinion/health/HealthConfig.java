package io.pinion.health;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * Backend probing for readiness checks and the {@code pinion_backend_up} gauge.
 */
@ConfigMapping(prefix = "pinion.health")
public interface HealthConfig {

    /** A backend that has not answered its probe within this time is reported DOWN. */
    @WithDefault("2s")
    Duration probeTimeout();

    /** How often every backend is probed for the {@code pinion_backend_up} gauge (read by the scheduler). */
    @WithDefault("10s")
    Duration probeInterval();

    /** How long a backend probe's result answers the backends health group before the backend is probed again. */
    @WithDefault("1s")
    Duration probeReuse();
}
