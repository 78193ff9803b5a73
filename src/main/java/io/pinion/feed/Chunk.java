package io.pinion.feed;

import java.util.List;

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
 * @param counts      how many candidates the generator saw and why it dropped some
 */
public record Chunk(long id, List<FeedEntry> entries, List<PoolEntry> consumed, List<PoolEntry> carried, long pulledUntil,
        Counts counts) {

    /** The same chunk with another id and the entries that are still shown. */
    Chunk with(long newId, List<FeedEntry> shown) {
        return new Chunk(newId, shown, consumed, carried, pulledUntil, counts);
    }

    /**
     * Candidates and drops of one chunk.
     *
     * @param pooled     candidates read from the pools
     * @param pulled     candidates read from pulled sources
     * @param belowBar   dropped: worth less than the quality threshold now
     * @param duplicates dropped: offered by two sources, or by a pool and a pulled source
     * @param shown      dropped: already in the materialized feed
     * @param heldBack   kept for a later visit (pool rows stay, pulled pins are carried into the pools)
     */
    public record Counts(int pooled, int pulled, int belowBar, int duplicates, int shown, int heldBack) {
    }
}
