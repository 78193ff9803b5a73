package io.pinion.feed;

import java.util.List;

/**
 * Body of a {@code feed-persist} job: materialize a chunk the user was shown, then delete what it consumed from
 * the pools, in that order, so that a crash in between leaves each pin in the pools or already materialized.
 *
 * @param user     the user
 * @param chunkId  the chunk's id (its rows are the same however often the job runs)
 * @param entries  the chunk, in the order shown
 * @param consumed the pool rows to delete
 */
public record PersistChunk(long user, long chunkId, List<FeedEntry> entries, List<Consumed> consumed) {

    /** One pool row of the user: source code, score, pin. */
    public record Consumed(int source, double score, long pin) {

        static Consumed of(PoolKey key) {
            return new Consumed(key.source().code(), key.score(), key.pin());
        }

        PoolKey key(long user) {
            return new PoolKey(user, FeedSource.ofCode(source).orElseThrow(), score, pin);
        }
    }
}
