package io.pinion.feed;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * Pool and feed entries survive their HBase cell encoding, with and without the interest they came through.
 */
class EntryValueTest {

    private static final PoolKey KEY = new PoolKey(13194139533313L, FeedSource.INTERESTS, -2.5, 914862393786372L);

    @Test
    void poolEntriesRoundTrip() {
        for (String interest : new String[] { null, "travel", "crème brûlée", "東京" }) {
            PoolEntry entry = new PoolEntry(KEY, 7L, 8L, 1_700_000_000_000L, interest);
            assertEquals(entry, PoolEntry.of(KEY.encode(), entry.value()));
        }
        assertEquals(24, new PoolEntry(KEY, 7L, 8L, 0L).value().length, "no interest, no extra bytes");
    }

    @Test
    void feedEntriesRoundTripAndKeepTheInterestOfTheirPoolEntry() {
        for (String interest : new String[] { null, "diy", "crème brûlée" }) {
            FeedEntry entry = FeedEntry.of(new PoolEntry(KEY, 7L, 8L, 0L, interest));
            assertEquals(interest, entry.interest());
            assertEquals(entry, FeedEntry.of(entry.value()));
        }
        assertEquals(33, new FeedEntry(1L, FeedSource.FOLLOWING, 1.0, 2L, 3L).value().length);
    }
}
