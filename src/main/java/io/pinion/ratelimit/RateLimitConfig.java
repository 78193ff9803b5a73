package io.pinion.ratelimit;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * {@code pinion.rate-limit.*}: limits of the cluster as a whole, each of n live instances enforcing 1/n of them
 * (behind a load balancer that spreads each client's requests evenly).
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

    /**
     * Login attempts per client address per minute (sign-ups count too). The address is the socket peer's, or, for a
     * request through a proxy listed in {@code pinion.http.trusted-proxies}, the client address it forwards.
     */
    @WithDefault("30")
    int loginsPerAddressPerMinute();

    /**
     * Login attempts per username from one client address per minute; over it, that address gets 429 for that name
     * (other addresses log in as usual: one address cannot lock a user out).
     */
    @WithDefault("10")
    int loginsPerUserAndAddressPerMinute();

    /**
     * Login attempts per username per minute, from anywhere; over it, logins for that name are slowed (each waits for
     * the next token, at most {@link #loginSlowdownMax()}), never refused.
     */
    @WithDefault("60")
    int loginsPerUserPerMinute();

    /** The longest a login is held back by {@link #loginsPerUserPerMinute()}. */
    @WithDefault("3s")
    Duration loginSlowdownMax();

    /** Most keys (users, addresses, usernames) each limiter tracks; idle ones are forgotten first. */
    @WithDefault("100000")
    int maxKeys();

    /** How long a key's bucket is kept after its last use (a full bucket is the same as none). */
    @WithDefault("10m")
    Duration idleAfter();
}
