package io.pinion.ratelimit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Token buckets keep at most their key bound however many keys arrive (no scan or clear when full: a new key costs
 * the same at 100,000 distinct keys as at the first), and a key's bucket keeps its count while it is held.
 */
class TokenBucketsTest {

    @Test
    void aHundredThousandDistinctKeysStayWithinTheBoundAtAFlatCost() {
        TokenBuckets buckets = new TokenBuckets(1, 2, 10_000, 60_000);
        long now = 1_000_000;
        long[] nanosPerTenThousand = new long[10];
        for (int batch = 0; batch < 10; batch++) {
            long started = System.nanoTime();
            for (int i = 0; i < 10_000; i++) {
                assertEquals(0, buckets.take("key-" + (batch * 10_000 + i), now));
            }
            nanosPerTenThousand[batch] = System.nanoTime() - started;
        }
        assertTrue(buckets.size() <= 10_000, "held " + buckets.size() + " keys, bound 10,000");
        System.out.printf("TokenBuckets: ns per 10,000 new keys, first to last: %s%n",
                java.util.Arrays.toString(nanosPerTenThousand));
    }

    @Test
    void aHeldKeyRunsOutAndRefillsAtItsRate() {
        TokenBuckets buckets = new TokenBuckets(1, 2, 100, 60_000);
        long now = 5_000;
        assertEquals(0, buckets.take("user", now));
        assertEquals(0, buckets.take("user", now));
        long wait = buckets.take("user", now);
        assertTrue(wait > 0 && wait <= 1_000, "waits " + wait + " ms for the next token");
        assertEquals(0, buckets.take("user", now + 1_000));
        assertEquals(0, buckets.take("other", now), "another key has its own bucket");
    }

    @Test
    void threeInstancesEachAllowAThirdOfTheLimitAndTogetherTheWholeOfIt() {
        // 20 per second with a burst of 40 for the cluster; three live instances, a client's requests spread evenly
        java.util.concurrent.atomic.AtomicInteger live = new java.util.concurrent.atomic.AtomicInteger(3);
        java.util.List<TokenBuckets> instances = java.util.List.of(
                new TokenBuckets(20, 40, 100, 60_000, () -> 1.0 / live.get()),
                new TokenBuckets(20, 40, 100, 60_000, () -> 1.0 / live.get()),
                new TokenBuckets(20, 40, 100, 60_000, () -> 1.0 / live.get()));
        long start = 1_000_000;
        int allowed = 0;
        // 100 requests per second for 10 s, round robin over the instances
        for (int i = 0; i < 1_000; i++) {
            if (instances.get(i % 3).take("user", start + i * 10L) == 0) {
                allowed++;
            }
        }
        // the burst (40) plus 20 per second over the 10 s, within a token per instance of rounding
        assertTrue(allowed >= 234 && allowed <= 243, "allowed " + allowed + " of 1,000 in 10 s across three instances");
        live.set(1);
        int alone = 0;
        for (int i = 0; i < 1_000; i++) {
            if (instances.get(0).take("user", start + 20_000 + i * 10L) == 0) {
                alone++;
            }
        }
        assertTrue(alone >= 234 && alone <= 243, "one instance left alone allows the whole limit: " + alone);
    }
}
