package io.pinion.feed;

import java.nio.ByteBuffer;

import io.pinion.id.PinionId;
import io.pinion.pins.PinView;

/**
 * One pin in one user's pool: its key (user, source, score, pin) and what removal by author or board needs.
 *
 * @param key        where it sorts
 * @param author     the pin's author
 * @param board      the board the pin is on
 * @param pinCreated when the pin was created (epoch ms)
 */
public record PoolEntry(PoolKey key, long author, long board, long pinCreated) {

    static final byte[] COLUMN = { 'e' };

    /** An existing pin entering a user's pool for a source, scored now without affinity (backfills, related pins). */
    static PoolEntry scored(long user, FeedSource source, PinView pin, FeedScorer scorer, long now) {
        long created = pin.createdAt().toEpochMilli();
        double score = scorer.score(new ScoringInput(source, created, now, 0));
        return new PoolEntry(new PoolKey(user, source, score, PinionId.parse(pin.id()).value()),
                PinionId.parse(pin.ownerId()).value(), PinionId.parse(pin.boardId()).value(), created);
    }

    byte[] value() {
        return ByteBuffer.allocate(24).putLong(author).putLong(board).putLong(pinCreated).array();
    }

    static PoolEntry of(byte[] row, byte[] value) {
        ByteBuffer buffer = ByteBuffer.wrap(value);
        return new PoolEntry(PoolKey.decode(row), buffer.getLong(), buffer.getLong(), buffer.getLong());
    }
}
