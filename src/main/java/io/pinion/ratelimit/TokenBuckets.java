package io.pinion.ratelimit;

import java.time.Duration;
import java.util.function.DoubleSupplier;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

/**
 * Token buckets by key: {@code ratePerSecond} tokens added continuously up to {@code burst}, both times this
 * instance's share of the cluster's limit (1 alone; 1/n of n live instances); a call takes one. At
 * most {@code maxKeys} keys are held (Caffeine's size bound: a new key costs the same however many there are), and a
 * bucket idle for {@code idleMs} is dropped; it was full again by then anyway.
 */
final class TokenBuckets {

    private static final class Bucket {
        double tokens;
        long updated;

        Bucket(double tokens, long updated) {
            this.tokens = tokens;
            this.updated = updated;
        }
    }

    private final double ratePerMs;
    private final double burst;
    private final DoubleSupplier share;
    private final Cache<String, Bucket> buckets;

    TokenBuckets(double ratePerSecond, double burst, int maxKeys, long idleMs) {
        this(ratePerSecond, burst, maxKeys, idleMs, () -> 1.0);
    }

    TokenBuckets(double ratePerSecond, double burst, int maxKeys, long idleMs, DoubleSupplier share) {
        this.ratePerMs = ratePerSecond / 1000.0;
        this.burst = burst;
        this.share = share;
        this.buckets = Caffeine.newBuilder().maximumSize(maxKeys)
                .expireAfterAccess(Duration.ofMillis(Math.max(1, idleMs))).build();
    }

    /** 0 when the call may go ahead (and a token was taken), else how many ms until a token is there. */
    long take(String key, long now) {
        double part = share.getAsDouble();
        double rate = ratePerMs * part;
        double most = Math.max(1, burst * part);
        Bucket bucket = buckets.get(key, k -> new Bucket(most, now));
        synchronized (bucket) {
            bucket.tokens = Math.min(most, bucket.tokens + Math.max(0, now - bucket.updated) * rate);
            bucket.updated = now;
            if (bucket.tokens >= 1) {
                bucket.tokens -= 1;
                return 0;
            }
            return (long) Math.ceil((1 - bucket.tokens) / rate);
        }
    }

    /** Keys held now (after pending evictions): for tests and benchmarks. */
    long size() {
        buckets.cleanUp();
        return buckets.estimatedSize();
    }
}
