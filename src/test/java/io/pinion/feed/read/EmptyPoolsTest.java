package io.pinion.feed.read;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import io.pinion.feed.FeedState;

/**
 * When the content generator skips the pool scan: only while the feed state counts no pool row and a visit was
 * recorded within the trusted hour; a user never seen, a count above zero or an old visit reads the pools.
 */
class EmptyPoolsTest {

    private static final long NOW = 1_800_000_000_000L;
    private static final long HOUR = ContentGenerator.EMPTY_POOLS_TRUSTED_MS;

    @Test
    void aZeroCountAfterARecentVisitSkipsTheScan() {
        assertTrue(ContentGenerator.emptyPools(new FeedState(NOW - 60_000, NOW - 60_000, null, 0), NOW));
        assertTrue(ContentGenerator.emptyPools(new FeedState(NOW - HOUR + 1, null, null, -2), NOW),
                "a count below zero (rows consumed twice) counts as empty; its trim recounts");
    }

    @Test
    void anythingElseReadsThePools() {
        assertFalse(ContentGenerator.emptyPools(new FeedState(NOW - 60_000, NOW, null, 1), NOW), "a row counted");
        assertFalse(ContentGenerator.emptyPools(new FeedState(NOW - HOUR, NOW, null, 0), NOW), "an hour since");
        assertFalse(ContentGenerator.emptyPools(new FeedState(null, null, null, 0), NOW), "no visit recorded");
        assertFalse(ContentGenerator.emptyPools(FeedState.NONE, NOW), "the state could not be read");
    }
}
