package io.pinion.feed;

import java.nio.ByteBuffer;

/**
 * The row key of one pin in one user's pool, laid out so that an HBase prefix scan returns the best pins first:
 *
 * <pre>
 * salt (1 byte) | user id (8) | source (1) | inverted score (8) | pin id (8)      = 26 bytes
 * </pre>
 *
 * The salt (a hash of the user id) spreads users over the key space, so regions split evenly however ids are
 * allocated. The score is a double mapped to a long whose unsigned byte order is the score's order (negative
 * scores included), then inverted, so higher scores sort first. Equal scores sort by pin id, ascending.
 *
 * @param user   the pool's owner
 * @param source which of the owner's pools
 * @param score  the pin's score for this user (finite)
 * @param pin    the pin
 */
public record PoolKey(long user, FeedSource source, double score, long pin) {

    public static final int LENGTH = 26;
    public static final int PREFIX_LENGTH = 10;

    public PoolKey {
        if (!Double.isFinite(score)) {
            throw new IllegalArgumentException("a pool score must be finite, was " + score);
        }
        if (score == 0.0) {
            score = 0.0; // -0.0 and 0.0 are one score
        }
    }

    public byte[] encode() {
        return ByteBuffer.allocate(LENGTH)
                .put(salt(user))
                .putLong(user)
                .put((byte) source.code())
                .putLong(~sortable(score))
                .putLong(pin)
                .array();
    }

    public static PoolKey decode(byte[] key) {
        if (key.length != LENGTH) {
            throw new IllegalArgumentException("a pool key has " + LENGTH + " bytes, not " + key.length);
        }
        ByteBuffer buffer = ByteBuffer.wrap(key);
        buffer.get();
        long user = buffer.getLong();
        int code = buffer.get();
        FeedSource source = FeedSource.ofCode(code)
                .orElseThrow(() -> new IllegalArgumentException("unknown feed source " + code));
        double score = fromSortable(~buffer.getLong());
        long pin = buffer.getLong();
        return new PoolKey(user, source, score, pin);
    }

    /** The first bytes shared by every key of one user's pool for one source. */
    public static byte[] prefix(long user, FeedSource source) {
        return ByteBuffer.allocate(PREFIX_LENGTH).put(salt(user)).putLong(user).put((byte) source.code()).array();
    }

    public static byte salt(long user) {
        long h = user * 0x9E3779B97F4A7C15L;
        return (byte) (h >>> 56);
    }

    /**
     * A long whose unsigned order (the order of its big-endian bytes) is the double's order: a positive double gets
     * its sign bit set, a negative one has every bit flipped.
     */
    static long sortable(double value) {
        long bits = Double.doubleToLongBits(value);
        return bits < 0 ? ~bits : bits | Long.MIN_VALUE;
    }

    static double fromSortable(long sortable) {
        return Double.longBitsToDouble(sortable < 0 ? sortable & Long.MAX_VALUE : ~sortable);
    }
}
