package io.pinion.feed;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

/**
 * The pool key's byte order is the pool's priority order: best score first, ties by pin id, negative scores last.
 */
class PoolKeyTest {

    private static final long USER = 13194139533313L;

    @Test
    void keysSortBestScoreFirstIncludingNegativeScoresAndTies() {
        double[] scores = { 3.5, -0.001, 0.0, -0.0, 1e-300, -1e300, 1e300, 42, -42, 0.5, 0.5, Double.MIN_VALUE,
                -Double.MIN_VALUE, Double.MAX_VALUE, -Double.MAX_VALUE };
        List<PoolKey> keys = new ArrayList<>();
        for (int i = 0; i < scores.length; i++) {
            keys.add(new PoolKey(USER, FeedSource.FOLLOWING, scores[i], 1000 + scores.length - i));
        }
        List<PoolKey> byBytes = new ArrayList<>(keys);
        byBytes.sort((a, b) -> Arrays.compareUnsigned(a.encode(), b.encode()));
        List<PoolKey> byPriority = new ArrayList<>(keys);
        byPriority.sort(Comparator.comparingDouble(PoolKey::score).reversed().thenComparingLong(PoolKey::pin));
        assertEquals(byPriority, byBytes);
        assertEquals(Double.MAX_VALUE, byBytes.get(0).score());
        assertEquals(-Double.MAX_VALUE, byBytes.get(byBytes.size() - 1).score());
    }

    @Test
    void equalScoresSortByPinId() {
        PoolKey first = new PoolKey(USER, FeedSource.RELATED, 2.0, 5);
        PoolKey second = new PoolKey(USER, FeedSource.RELATED, 2.0, 6);
        assertTrue(Arrays.compareUnsigned(first.encode(), second.encode()) < 0);
        assertTrue(Arrays.compareUnsigned(new PoolKey(USER, FeedSource.RELATED, 2.0000001, 9).encode(), first.encode())
                < 0);
    }

    @Test
    void randomScoresRoundTripAndKeepTheirOrder() {
        Random random = new Random(7);
        List<PoolKey> keys = new ArrayList<>();
        for (int i = 0; i < 5_000; i++) {
            double score = (random.nextDouble() - 0.5) * Math.pow(10, random.nextInt(20) - 10);
            PoolKey key = new PoolKey(USER, FeedSource.INTERESTS, score, random.nextLong() & Long.MAX_VALUE);
            assertEquals(key, PoolKey.decode(key.encode()));
            keys.add(key);
        }
        List<PoolKey> byBytes = new ArrayList<>(keys);
        byBytes.sort((a, b) -> Arrays.compareUnsigned(a.encode(), b.encode()));
        List<PoolKey> byPriority = new ArrayList<>(keys);
        byPriority.sort(Comparator.comparingDouble(PoolKey::score).reversed().thenComparingLong(PoolKey::pin));
        assertEquals(byPriority, byBytes);
    }

    @Test
    void everyKeyOfAPoolStartsWithItsPrefixAndPoolsDoNotInterleave() {
        PoolKey key = new PoolKey(USER, FeedSource.INTERESTS, -7.25, 99);
        byte[] prefix = PoolKey.prefix(USER, FeedSource.INTERESTS);
        assertArrayEquals(prefix, Arrays.copyOf(key.encode(), PoolKey.PREFIX_LENGTH));
        assertEquals(PoolKey.LENGTH, key.encode().length);
        byte[] other = PoolKey.prefix(USER, FeedSource.FOLLOWING);
        assertTrue(!Arrays.equals(prefix, other));
        assertEquals(prefix[0], PoolKey.prefix(USER, FeedSource.FOLLOWING)[0], "one salt per user");
    }

    @Test
    void nonFiniteScoresAndMalformedKeysAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new PoolKey(USER, FeedSource.FOLLOWING, Double.NaN, 1));
        assertThrows(
                IllegalArgumentException.class,
                () -> new PoolKey(USER, FeedSource.FOLLOWING, Double.POSITIVE_INFINITY, 1));
        assertThrows(IllegalArgumentException.class, () -> PoolKey.decode(new byte[3]));
    }
}
