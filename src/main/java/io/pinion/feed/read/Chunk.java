package io.pinion.feed.read;

import java.util.List;

import io.pinion.feed.FeedEntry;
import io.pinion.feed.PlanCounts;
import io.pinion.feed.PoolEntry;

/**
 * What the content generator hands out for one visit.
 *
 * @param id          the chunk's id (generation time in ms, above every earlier chunk of the user)
 * @param entries     the pins to show, best first
 * @param consumed    the pool rows to delete once the chunk is materialized: the pins shown, and those dropped as
 *                    duplicates, already shown or below the quality threshold
 * @param carried     pulled pins neither shown nor dropped (held back, or beyond the chunk's quotas): they go into
 *                    the user's pools for a later visit
 * @param pulledUntil the time up to which the pulled sources were read
 * @param counts      per source, how many candidates the generator saw and what it did with each
 */
public record Chunk(
        long id,
        List<FeedEntry> entries,
        List<PoolEntry> consumed,
        List<PoolEntry> carried,
        long pulledUntil,
        PlanCounts counts) {

    /** The same chunk with another id and the entries that are still shown. */
    Chunk with(long newId, List<FeedEntry> shown) {
        return new Chunk(newId, shown, consumed, carried, pulledUntil, counts);
    }
}
