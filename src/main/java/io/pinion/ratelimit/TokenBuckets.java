package io.pinion.ratelimit;

import java.time.Duration;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

/**
 * Token buckets by key: {@code ratePerSecond} tokens added continuously up to {@code burst}; a call takes one. At
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
    private final Cache<String, Bucket> buckets;

    TokenBuckets(double ratePerSecond, double burst, int maxKeys, long idleMs) {
        this.ratePerMs = ratePerSecond / 1000.0;
        this.burst = Math.max(1, burst);
        this.buckets = Caffeine.newBuilder().maximumSize(maxKeys)
                .expireAfterAccess(Duration.ofMillis(Math.max(1, idleMs))).build();
    }

    /** 0 when the call may go ahead (and a token was taken), else how many ms until a token is there. */
    long take(String key, long now) {
        Bucket bucket = buckets.get(key, k -> new Bucket(burst, now));
        synchronized (bucket) {
            bucket.tokens = Math.min(burst, bucket.tokens + Math.max(0, now - bucket.updated) * ratePerMs);
            bucket.updated = now;
            if (bucket.tokens >= 1) {
                bucket.tokens -= 1;
                return 0;
            }
            return (long) Math.ceil((1 - bucket.tokens) / ratePerMs);
        }
    }

    /** Keys held now (after pending evictions): for tests and benchmarks. */
    long size() {
        buckets.cleanUp();
        return buckets.estimatedSize();
    }
}
