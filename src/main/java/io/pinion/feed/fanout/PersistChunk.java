package io.pinion.feed.fanout;

import java.util.List;

import io.pinion.feed.FeedEntry;
import io.pinion.feed.PoolEntry;
import io.pinion.feed.PoolRow;

/**
 * Body of a {@code feed-persist} job: materialize a chunk the user was shown, then put the pulled pins it carried
 * into the pools and delete what it consumed from them, then record the pull, in that order, so that a crash in
 * between leaves each pin in the pools, in a pulled source or already materialized.
 *
 * @param user        the user
 * @param chunkId     the chunk's id (its rows are the same however often the job runs)
 * @param entries     the chunk, in the order shown
 * @param consumed    the pool rows to delete
 * @param carried     pulled pins not shown, for the pools (null in jobs written before pulling existed)
 * @param pulledUntil the time the pulled sources were read up to (0: none)
 */
public record PersistChunk(
        long user,
        long chunkId,
        List<FeedEntry> entries,
        List<PoolRow> consumed,
        List<PoolRow> carried,
        long pulledUntil) {

    List<PoolEntry> consumedEntries() {
        return consumed == null ? List.of() : consumed.stream().map(row -> row.entry(user)).toList();
    }

    List<PoolEntry> carriedEntries() {
        return carried == null ? List.of() : carried.stream().map(row -> row.entry(user)).toList();
    }
}
