package io.pinion.feed;

import java.util.List;

/**
 * What the content generator hands out for one visit.
 *
 * @param id       the chunk's id (generation time in ms, above every earlier chunk of the user)
 * @param entries  the pins to show, best first
 * @param consumed the pool rows to delete once the chunk is materialized: the pins shown, and those dropped as
 *                 duplicates or below the quality threshold
 */
public record Chunk(long id, List<FeedEntry> entries, List<PoolKey> consumed) {
}
