package io.pinion.feed.store;

import java.nio.ByteBuffer;

import io.pinion.feed.PoolEntry;
import io.pinion.feed.PoolKey;

/**
 * The row of one pin in the index of a user's pools by author and board, next to the pools in the same table:
 *
 * <pre>
 * salt (1) | user (8) | 0x80 (1) | author (8) | board (8) | pin (8)      = 34 bytes
 * </pre>
 *
 * One column per source the pin is pooled under (qualifier: the source's code; value: the row's score and, for the
 * interests source, the interest), so an unfollow of an author (prefix up to the author) or of a board (prefix up to
 * the board), and the purge of a deleted pin (the whole row), find the pool rows to delete without scanning the
 * pools. The marker byte sorts after every source code, so a source's prefix scan never meets an index row.
 */
public record PoolIndexKey(long user, long author, long board, long pin) {

    static final byte MARKER = (byte) 0x80;
    static final int LENGTH = 34;

    static PoolIndexKey of(PoolEntry entry) {
        return new PoolIndexKey(entry.key().user(), entry.author(), entry.board(), entry.key().pin());
    }

    byte[] encode() {
        return ByteBuffer.allocate(LENGTH).put(PoolKey.salt(user)).putLong(user).put(MARKER).putLong(author)
                .putLong(board).putLong(pin).array();
    }

    static PoolIndexKey decode(byte[] row) {
        ByteBuffer buffer = ByteBuffer.wrap(row);
        buffer.get();
        long user = buffer.getLong();
        buffer.get();
        return new PoolIndexKey(user, buffer.getLong(), buffer.getLong(), buffer.getLong());
    }

    /** The first bytes of the index rows of the user's pins by {@code author}. */
    static byte[] authorPrefix(long user, long author) {
        return ByteBuffer.allocate(18).put(PoolKey.salt(user)).putLong(user).put(MARKER).putLong(author).array();
    }

    /** The first bytes of the index rows of the user's pins on {@code board} of {@code author}. */
    static byte[] boardPrefix(long user, long author, long board) {
        return ByteBuffer.allocate(26).put(PoolKey.salt(user)).putLong(user).put(MARKER).putLong(author).putLong(board)
                .array();
    }
}
