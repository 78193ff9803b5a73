package io.pinion.feed;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;

import io.pinion.id.PinionId;
import io.pinion.pins.PinView;

/**
 * One pin in one user's pool: its key (user, source, score, pin) and what removal by author, board or interest
 * needs.
 *
 * @param key        where it sorts
 * @param author     the pin's author
 * @param board      the board the pin is on
 * @param pinCreated when the pin was created (epoch ms)
 * @param interest   for the interests source, the followed interest it came through; otherwise null
 */
public record PoolEntry(PoolKey key, long author, long board, long pinCreated, String interest) {

    /** Best first: the higher score first, the lower pin id between equal scores. */
    public static final Comparator<PoolEntry> BEST_FIRST = Comparator
            .comparingDouble((PoolEntry e) -> e.key().score()).reversed()
            .thenComparingLong(e -> e.key().pin());

    public static final byte[] COLUMN = { 'e' };

    public PoolEntry(PoolKey key, long author, long board, long pinCreated) {
        this(key, author, board, pinCreated, null);
    }

    /** An existing pin entering a user's pool for a source, scored now without affinity (backfills, related pins). */
    public static PoolEntry scored(long user, FeedSource source, PinView pin, FeedScorer scorer, long now) {
        long created = pin.createdAt().toEpochMilli();
        double score = scorer.score(new ScoringInput(source, created, now, 0));
        return new PoolEntry(new PoolKey(user, source, score, PinionId.parse(pin.id()).value()),
                PinionId.parse(pin.ownerId()).value(), PinionId.parse(pin.boardId()).value(), created);
    }

    public PoolEntry withInterest(String name) {
        return new PoolEntry(key, author, board, pinCreated, name);
    }

    /** author, board, creation time, then the interest's UTF-8 bytes if there is one. */
    public byte[] value() {
        byte[] name = interest == null ? new byte[0] : interest.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(24 + name.length)
                .putLong(author)
                .putLong(board)
                .putLong(pinCreated)
                .put(name)
                .array();
    }

    public static PoolEntry of(byte[] row, byte[] value) {
        ByteBuffer buffer = ByteBuffer.wrap(value);
        return new PoolEntry(PoolKey.decode(row), buffer.getLong(), buffer.getLong(), buffer.getLong(), rest(buffer));
    }

    /** The remaining bytes as a UTF-8 string, or null if there are none. */
    public static String rest(ByteBuffer buffer) {
        return buffer.hasRemaining()
                ? new String(buffer.array(), buffer.position(), buffer.remaining(), StandardCharsets.UTF_8) : null;
    }
}
