package io.pinion.feed.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.pinion.feed.FeedSource;
import io.pinion.feed.PoolEntry;
import io.pinion.feed.PoolKey;
import io.pinion.stack.StackTest;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Pools on the real pools cluster: a prefix scan returns the best pins of one user's one source, in order; pools
 * of other users and sources never mix in; removal by key and by author.
 */
@QuarkusTest
@StackTest
class PoolStoreTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final AtomicLong USERS = new AtomicLong(System.nanoTime() & 0xffffffffL);

    @Inject
    PoolStore pools;

    @Test
    void topReturnsTheBestPinsOfOnePoolBestFirst() {
        long user = USERS.addAndGet(2); // user + 1 is a neighbour
        long neighbour = user + 1;
        Random random = new Random(3);
        List<PoolEntry> following = new ArrayList<>();
        List<PoolEntry> all = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            double score = (random.nextDouble() - 0.3) * 100;
            PoolEntry entry = new PoolEntry(
                    new PoolKey(user, FeedSource.FOLLOWING, i % 7 == 0 ? 10.0 : score, 1000 + i),
                    77,
                    88,
                    1_795_000_000_000L + i);
            following.add(entry);
            all.add(entry);
            all.add(new PoolEntry(new PoolKey(user, FeedSource.RELATED, score + 1000, 5000 + i), 77, 88, 0));
            all.add(new PoolEntry(new PoolKey(neighbour, FeedSource.FOLLOWING, score + 1000, 9000 + i), 77, 88, 0));
        }
        pools.add(all).await().atMost(WAIT);

        List<PoolEntry> expected = following.stream()
                .sorted(Comparator.comparingDouble((PoolEntry e) -> e.key().score()).reversed()
                        .thenComparingLong(e -> e.key().pin()))
                .toList();
        assertEquals(expected.subList(0, 10), pools.top(user, FeedSource.FOLLOWING, 10).await().atMost(WAIT));
        assertEquals(expected, pools.top(user, FeedSource.FOLLOWING, 1000).await().atMost(WAIT));

        pools.remove(expected.subList(0, 10)).await().atMost(WAIT);
        assertEquals(expected.subList(10, 15), pools.top(user, FeedSource.FOLLOWING, 5).await().atMost(WAIT));
        assertEquals(60, pools.top(user, FeedSource.RELATED, 100).await().atMost(WAIT).size());
    }

    @Test
    void removeByAuthorDropsOneAuthorsPinsFromEveryPoolOfTheUser() {
        long user = USERS.addAndGet(2); // user + 1 is a neighbour
        List<PoolEntry> entries = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            long author = i % 2 == 0 ? 501 : 502;
            FeedSource source = FeedSource.values()[i % 3];
            entries.add(new PoolEntry(new PoolKey(user, source, i, 100 + i), author, 600 + author, 0));
        }
        pools.add(entries).await().atMost(WAIT);
        assertEquals(10, pools.removeByAuthor(user, 501, entry -> true).await().atMost(WAIT));
        int left = 0;
        for (FeedSource source : FeedSource.values()) {
            for (PoolEntry entry : pools.top(user, source, 100).await().atMost(WAIT)) {
                assertEquals(502, entry.author());
                left++;
            }
        }
        assertEquals(10, left);
    }
}
