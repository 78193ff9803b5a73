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
}
