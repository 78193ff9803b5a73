package io.pinion.feed.store;

import java.nio.ByteBuffer;

import io.pinion.feed.PoolKey;

/**
 * Row key of one entry of a user's materialized feed: {@code salt (1) | user (8) | ~position (8)}. Positions grow
 * with every chunk and, within a chunk, from its last entry to its first, so a scan of the user's rows returns
 * newest chunk first, each chunk in its own order. A chunk's positions come from its id (the time it was generated,
 * in ms, × 1024), so writing the same chunk twice writes the same rows.
 * <p>
 * Next to the entries, in family {@code s} of the same table, the feed's <b>shown index</b>: one row per pin shown,
 * {@code salt | user | pin} ({@link #shown}), whose cell versions are the chunks holding the pin (timestamp the chunk
 * id, value the entry's position), and one count row {@code salt | user | 0xFF×8} ({@link #count}). Pin ids are
 * non-negative and {@code ~position} is negative, so no index row shares a key with an entry.
 */
public record MaterializedKey(long user, long position) {

    public static final int MAX_CHUNK = 1024;

    public byte[] encode() {
        return ByteBuffer.allocate(17).put(PoolKey.salt(user)).putLong(user).putLong(~position).array();
    }

    public static MaterializedKey decode(byte[] key) {
        ByteBuffer buffer = ByteBuffer.wrap(key);
        buffer.get();
        return new MaterializedKey(buffer.getLong(), ~buffer.getLong());
    }

    /** The position of entry {@code index} (0 = first shown) of the chunk {@code chunkId}. */
    public static long position(long chunkId, int index) {
        if (index < 0 || index >= MAX_CHUNK) {
            throw new IllegalArgumentException("a chunk holds at most " + MAX_CHUNK + " entries");
        }
        return chunkId * MAX_CHUNK + (MAX_CHUNK - 1 - index);
    }

    /** The chunk an entry at {@code position} belongs to (its id, the time it was generated). */
    public static long chunkOf(long position) {
        return position / MAX_CHUNK;
    }

    /** Row key of the pin's shown-index row. */
    public static byte[] shown(long user, long pin) {
        return ByteBuffer.allocate(17).put(PoolKey.salt(user)).putLong(user).putLong(pin).array();
    }

    /** The pin of a shown-index row key. */
    public static long shownPin(byte[] key) {
        return ByteBuffer.wrap(key, 9, 8).getLong();
    }

    /** Row key of the user's entry count. */
    public static byte[] count(long user) {
        return ByteBuffer.allocate(17).put(PoolKey.salt(user)).putLong(user).putLong(-1L).array();
    }

    /** The first bytes of every row of the user's feed. */
    public static byte[] prefix(long user) {
        return ByteBuffer.allocate(9).put(PoolKey.salt(user)).putLong(user).array();
    }
}
