package io.pinion.ratelimit;

import java.util.function.DoubleSupplier;

import jakarta.enterprise.context.ApplicationScoped;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.pinion.failure.RateLimited;
import io.pinion.zookeeper.ClusterViews;

/**
 * The service's rate limits, for the cluster as a whole: each of n live instances ({@link ClusterViews}) allows 1/n
 * of every limit, and a load balancer that spreads a client's requests evenly (round robin) makes the sum the
 * configured limit. Writes per user, login attempts per client address and per username and address (each
 * refusal a 429 {@code rate_limited} with {@code Retry-After}, counted in {@code pinion_rate_limited_total{limit}}),
 * and login attempts per username from anywhere, which slow the logins for that name down instead of refusing them
 * ({@code pinion_login_slowed_total}): nobody can lock a user out by failing to log in as them.
 */
@ApplicationScoped
public class RateLimits {

    private final RateLimitConfig config;
    private final TokenBuckets writes;
    private final TokenBuckets loginAddresses;
    private final TokenBuckets loginPairs;
    private final TokenBuckets loginUsers;
    private final Counter writesLimited;
    private final Counter addressesLimited;
    private final Counter pairsLimited;
    private final Counter usersSlowed;

    RateLimits(RateLimitConfig config, MeterRegistry registry, ClusterViews cluster) {
        this.config = config;
        long idle = config.idleAfter().toMillis();
        DoubleSupplier share = () -> 1.0 / cluster.liveInstances();
        this.writes = new TokenBuckets(config.writesPerSecond(), config.writeBurst(), config.maxKeys(), idle, share);
        this.loginAddresses = new TokenBuckets(
                config.loginsPerAddressPerMinute() / 60.0,
                config.loginsPerAddressPerMinute(),
                config.maxKeys(),
                idle,
                share);
        this.loginPairs = new TokenBuckets(config.loginsPerUserAndAddressPerMinute() / 60.0,
                config.loginsPerUserAndAddressPerMinute(), config.maxKeys(), idle, share);
        this.loginUsers = new TokenBuckets(config.loginsPerUserPerMinute() / 60.0, config.loginsPerUserPerMinute(),
                config.maxKeys(), idle, share);
        this.writesLimited = counter(registry, "write");
        this.addressesLimited = counter(registry, "login_address");
        this.pairsLimited = counter(registry, "login_user_address");
        this.usersSlowed = Counter.builder("pinion.login.slowed")
                .description("Logins held back because their username was tried too often from anywhere")
                .register(registry);
    }

    /** A write by the user; fails with 429 over the limit. */
    public void write(String user) {
        check(writes, user, writesLimited, "too many writes; slow down");
    }

    /** A login attempt or sign-up from the address; fails with 429 over the limit. */
    public void loginFrom(String address) {
        check(loginAddresses, address, addressesLimited, "too many login attempts from this address");
    }

    /**
     * A login attempt for the username from the address: fails with 429 over the limit of that pair; over the
     * username's limit from anywhere, answers how long to hold the login back (ms, at most
     * {@code login-slowdown-max}), else 0.
     */
    public long loginAs(String username, String address) {
        if (!config.enabled() || username == null) {
            return 0;
        }
        check(loginPairs, username + "\u0000" + (address == null ? "" : address), pairsLimited,
                "too many login attempts for this user from this address");
        long waitMs = loginUsers.take(username, System.currentTimeMillis());
        if (waitMs <= 0) {
            return 0;
        }
        usersSlowed.increment();
        return Math.min(waitMs, config.loginSlowdownMax().toMillis());
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
        return Counter.builder("pinion.rate.limited").tag("limit", limit)
                .description("Requests refused with 429 by a rate limit").register(registry);
    }
}
