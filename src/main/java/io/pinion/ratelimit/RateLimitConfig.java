package io.pinion.ratelimit;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * {@code pinion.rate-limit.*}: token buckets per instance (a deployment of n instances allows up to n times these).
 * A request over a limit gets 429 {@code rate_limited} with {@code Retry-After}.
 */
@ConfigMapping(prefix = "pinion.rate-limit")
public interface RateLimitConfig {

    /** Whether the limits apply at all. */
    @WithDefault("true")
    boolean enabled();

    /** Writes (POST, PUT, PATCH, DELETE of pins, boards, follows, likes…) per user per second, sustained. */
    @WithDefault("20")
    double writesPerSecond();

    /** Writes a user may burst above the sustained rate. */
    @WithDefault("40")
    int writeBurst();

    /** Login attempts per client address per minute (sign-ups count too). */
    @WithDefault("30")
    int loginsPerAddressPerMinute();

    /** Login attempts per username per minute, from anywhere. */
    @WithDefault("10")
    int loginsPerUserPerMinute();

    /** Most keys (users, addresses, usernames) each limiter tracks; idle ones are forgotten first. */
    @WithDefault("100000")
    int maxKeys();

    /** How long a key's bucket is kept after its last use (a full bucket is the same as none). */
    @WithDefault("10m")
    Duration idleAfter();
}
