package io.pinion.feed;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.pinion.feed.store.PoolStore;
import io.pinion.id.ObjectType;
import io.pinion.id.PinionId;
import io.pinion.stack.StackTest;
import io.quarkus.test.junit.QuarkusTest;

/**
 * "The best n of each pool" gives exactly what one scan per source gives, whether the user's pools are read with one
 * scan over all three (small pools), with one scan that stopped short and the sources it cut read again, or with one
 * scan per source (large pools).
 */
@QuarkusTest
@StackTest
class PoolReadTest {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final AtomicLong USERS = new AtomicLong(60_000_000_000L + (System.nanoTime() & 0xfffffffL));

    @Inject
    PoolStore pools;

    @Test
    void theBestOfEachPoolIsTheSameHoweverThePoolsAreRead() {
        int n = 20;
        for (int[] sizes : new int[][] { { 0, 0, 0 }, { 5, 2, 3 }, { 30, 5, 10 }, { 200, 3, 40 }, { 10, 200, 0 },
                { 0, 0, 90 } }) {
            long user = PinionId.of(1, ObjectType.USER, USERS.incrementAndGet()).value();
            List<PoolEntry> rows = new ArrayList<>();
            Random random = new Random(user);
            for (FeedSource source : FeedSource.values()) {
                for (int i = 0; i < sizes[source.ordinal()]; i++) {
                    rows.add(new PoolEntry(
                            new PoolKey(user, source, random.nextDouble() * 100, 1_000 + rows.size()), 7, 8, 1L, null));
                }
            }
            pools.add(rows).await().atMost(WAIT);
            Map<FeedSource, List<PoolEntry>> expected = new java.util.EnumMap<>(FeedSource.class);
            for (FeedSource source : FeedSource.values()) {
                expected.put(source, pools.top(user, source, n).await().atMost(WAIT));
            }
            String what = "pools of " + java.util.Arrays.toString(sizes);
            assertEquals(expected, pools.best(user, n, rows.size()).await().atMost(WAIT), what + ", counted right");
            assertEquals(expected, pools.best(user, n, 0).await().atMost(WAIT), what + ", believed empty");
            assertEquals(expected, pools.best(user, n, 10_000).await().atMost(WAIT), what + ", believed large");
        }
    }
}
