package io.pinion.ratelimit;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Token buckets by key: {@code ratePerSecond} tokens added continuously up to {@code burst}; a call takes one. The
 * map holds at most {@code maxKeys} keys: when full, buckets idle for {@code idleMs} are dropped (they were full
 * anyway), and if that frees nothing the oldest half goes.
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
    private final int maxKeys;
    private final long idleMs;
    private final Map<String, Bucket> buckets = new ConcurrentHashMap<>();

    TokenBuckets(double ratePerSecond, double burst, int maxKeys, long idleMs) {
        this.ratePerMs = ratePerSecond / 1000.0;
        this.burst = Math.max(1, burst);
        this.maxKeys = maxKeys;
        this.idleMs = idleMs;
    }

    /** 0 when the call may go ahead (and a token was taken), else how many ms until a token is there. */
    long take(String key, long now) {
        if (buckets.size() >= maxKeys && !buckets.containsKey(key)) {
            evict(now);
        }
        Bucket bucket = buckets.computeIfAbsent(key, k -> new Bucket(burst, now));
        synchronized (bucket) {
            bucket.tokens = Math.min(burst, bucket.tokens + (now - bucket.updated) * ratePerMs);
            bucket.updated = now;
            if (bucket.tokens >= 1) {
                bucket.tokens -= 1;
                return 0;
            }
            return (long) Math.ceil((1 - bucket.tokens) / ratePerMs);
        }
    }

    private synchronized void evict(long now) {
        buckets.values().removeIf(bucket -> now - bucket.updated > idleMs);
        if (buckets.size() >= maxKeys) {
            long cut = buckets.values().stream().mapToLong(b -> b.updated).sorted().skip(buckets.size() / 2).findFirst().orElse(now);
            buckets.values().removeIf(bucket -> bucket.updated < cut);
        }
    }
}
