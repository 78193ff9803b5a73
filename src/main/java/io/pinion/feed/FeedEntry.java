package io.pinion.feed;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * One pin as a feed shows it: which pin, from which source, with what score, by whom, on which board and, for the
 * interests source, through which interest (so an unfollow can remove an author's, a board's or an interest's pins).
 */
public record FeedEntry(long pin, FeedSource source, double score, long author, long board, String interest) {

    public FeedEntry(long pin, FeedSource source, double score, long author, long board) {
        this(pin, source, score, author, board, null);
    }

    public static FeedEntry of(PoolEntry entry) {
        return new FeedEntry(
                entry.key().pin(),
                entry.key().source(),
                entry.key().score(),
                entry.author(),
                entry.board(),
                entry.interest());
    }

    /** pin, source code, score, author, board, then the interest's UTF-8 bytes if there is one. */
    public byte[] value() {
        byte[] name = interest == null ? new byte[0] : interest.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(33 + name.length).putLong(pin).put((byte) source.code()).putDouble(score)
                .putLong(author).putLong(board).put(name).array();
    }

    public static FeedEntry of(byte[] value) {
        ByteBuffer buffer = ByteBuffer.wrap(value);
        long pin = buffer.getLong();
        FeedSource source = FeedSource.ofCode(buffer.get()).orElse(FeedSource.FOLLOWING);
        return new FeedEntry(
                pin, source, buffer.getDouble(), buffer.getLong(), buffer.getLong(), PoolEntry.rest(buffer));
    }
}
