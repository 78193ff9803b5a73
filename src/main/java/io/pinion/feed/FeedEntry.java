package io.pinion.feed;

import java.nio.ByteBuffer;

/**
 * One pin as a feed shows it: which pin, from which source, with what score, by whom and on which board (so an
 * unfollow can remove an author's or a board's pins).
 */
public record FeedEntry(long pin, FeedSource source, double score, long author, long board) {

    static FeedEntry of(PoolEntry entry) {
        return new FeedEntry(entry.key().pin(), entry.key().source(), entry.key().score(), entry.author(), entry.board());
    }

    byte[] value() {
        return ByteBuffer.allocate(33).putLong(pin).put((byte) source.code()).putDouble(score).putLong(author)
                .putLong(board).array();
    }

    static FeedEntry of(byte[] value) {
        ByteBuffer buffer = ByteBuffer.wrap(value);
        long pin = buffer.getLong();
        FeedSource source = FeedSource.ofCode(buffer.get()).orElse(FeedSource.FOLLOWING);
        return new FeedEntry(pin, source, buffer.getDouble(), buffer.getLong(), buffer.getLong());
    }
}
