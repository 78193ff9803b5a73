package io.pinion.seed;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.pinion.feed.FeedConfig;
import io.pinion.feed.FeedSource;
import io.pinion.feed.FeedState;
import io.pinion.feed.PoolEntry;
import io.pinion.feed.PoolKey;
import io.pinion.feed.store.FeedStates;
import io.pinion.feed.store.MaterializedFeed;
import io.pinion.feed.store.PoolStore;
import io.pinion.stack.StackTest;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The seed's past visits on the real stack: of a user's pooled pins, those created before the last visit are in the
 * materialized feed, newest first and once each, in chunks of the configured size, at most the feed's maximum; they
 * left the pools; those created since stay pooled; the feed state counts the rows left and the pull as done up to the
 * visit.
 */
@QuarkusTest
@StackTest
class SeedPastFeedsTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final long HOUR = 3_600_000L;

    @Inject
    SeedPastFeeds past;
    @Inject
    PoolStore pools;
    @Inject
    MaterializedFeed materialized;
    @Inject
    FeedStates states;
    @Inject
    FeedConfig config;

    @Test
    void pinsFromBeforeTheLastVisitWereShownAndTheRestStayPooled() {
        long user = ThreadLocalRandom.current().nextLong(10_000_000, 90_000_000);
        long visit = System.currentTimeMillis() - 24 * HOUR;
        List<PoolEntry> rows = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            // pins created an hour apart, from 40 hours before the visit to 19 hours after it
            long created = visit - 40 * HOUR + i * HOUR;
            rows.add(new PoolEntry(new PoolKey(user, FeedSource.FOLLOWING, 100 - i, user * 1000 + i), 7, 8, created));
        }
        // the same pin of the oldest pair also pooled by an interest: it is shown once
        rows.add(new PoolEntry(new PoolKey(user, FeedSource.INTERESTS, 1, user * 1000), 7, 8, visit - 40 * HOUR)
                .withInterest("travel"));
        pools.add(rows).await().atMost(WAIT);

        SeedPastFeeds.Past written = past.user(user, visit).await().atMost(WAIT);

        List<Long> before = rows.stream().filter(row -> row.pinCreated() <= visit && row.key().source()
                        == FeedSource.FOLLOWING)
                .sorted(Comparator.comparingLong(PoolEntry::pinCreated).reversed())
                .map(row -> row.key().pin()).toList();
        assertEquals(41, before.size());
        List<MaterializedFeed.Stored> feed = materialized.page(user, null, 1000).await().atMost(WAIT);
        assertEquals(before, feed.stream().map(stored -> stored.entry().pin()).toList(),
                "the pins from before the visit, newest first, once each");
        assertEquals(41, written.shown());
        long chunks = feed.stream().map(stored -> stored.position() / 1024).distinct().count();
        assertEquals((41 + config.chunkSize() - 1) / config.chunkSize(), chunks, "chunks of the configured size");

        List<PoolEntry> left = pools.everything(user).await().atMost(WAIT);
        assertEquals(19, left.size(), "the pins created since the visit stay pooled");
        left.forEach(row -> assertEquals(true, row.pinCreated() > visit, "pooled pin " + row.key().pin()));
        FeedState state = states.read(user).await().atMost(WAIT);
        assertEquals(19L, state.poolRows());
        assertEquals(visit, state.pulledUntil());
    }
}
