package io.pinion.ratelimit;

import jakarta.enterprise.context.ApplicationScoped;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.pinion.failure.RateLimited;

/**
 * The service's rate limits: writes per user, login attempts per client address and per username. Each refusal is
 * a 429 {@code rate_limited} with {@code Retry-After}, counted in {@code pinion_rate_limited_total{limit}}.
 */
@ApplicationScoped
public class RateLimits {

    private final RateLimitConfig config;
    private final TokenBuckets writes;
    private final TokenBuckets loginAddresses;
    private final TokenBuckets loginUsers;
    private final Counter writesLimited;
    private final Counter addressesLimited;
    private final Counter usersLimited;

    RateLimits(RateLimitConfig config, MeterRegistry registry) {
        this.config = config;
        long idle = config.idleAfter().toMillis();
        this.writes = new TokenBuckets(config.writesPerSecond(), config.writeBurst(), config.maxKeys(), idle);
        this.loginAddresses = new TokenBuckets(config.loginsPerAddressPerMinute() / 60.0, config.loginsPerAddressPerMinute(),
                config.maxKeys(), idle);
        this.loginUsers = new TokenBuckets(config.loginsPerUserPerMinute() / 60.0, config.loginsPerUserPerMinute(),
                config.maxKeys(), idle);
        this.writesLimited = counter(registry, "write");
        this.addressesLimited = counter(registry, "login_address");
        this.usersLimited = counter(registry, "login_user");
    }

    /** A write by the user; fails with 429 over the limit. */
    public void write(String user) {
        check(writes, user, writesLimited, "too many writes; slow down");
    }

    /** A login attempt or sign-up from the address; fails with 429 over the limit. */
    public void loginFrom(String address) {
        check(loginAddresses, address, addressesLimited, "too many login attempts from this address");
    }

    /** A login attempt for the username; fails with 429 over the limit. */
    public void loginAs(String username) {
        check(loginUsers, username, usersLimited, "too many login attempts for this user");
    }

    private void check(TokenBuckets buckets, String key, Counter limited, String message) {
        if (!config.enabled() || key == null) {
            return;
        }
        long waitMs = buckets.take(key, System.currentTimeMillis());
        if (waitMs > 0) {
            limited.increment();
            throw new RateLimited(message, Math.max(1, (waitMs + 999) / 1000));
        }
    }

    private static Counter counter(MeterRegistry registry, String limit) {
        return Counter.builder("pinion_rate_limited_total").tag("limit", limit)
                .description("Requests refused with 429 by a rate limit").register(registry);
    }
}
