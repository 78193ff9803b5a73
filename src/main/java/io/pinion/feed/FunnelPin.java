package io.pinion.feed;

/**
 * What a funnel count is about: a pin with its author and the board it was saved to. A part that the counting place
 * does not know is 0 (rows removed by an unfollow know their author or board, not each pin); that part is then not
 * counted per entity.
 */
public record FunnelPin(long pin, long author, long board) {

    public static FunnelPin of(PoolEntry entry) {
        return new FunnelPin(entry.key().pin(), entry.author(), entry.board());
    }

    public static FunnelPin of(FeedEntry entry) {
        return new FunnelPin(entry.pin(), entry.author(), entry.board());
    }

    /** Counts about an author's rows, none of their pins named. */
    public static FunnelPin ofAuthor(long author) {
        return new FunnelPin(0, author, 0);
    }

    /** Counts about a board's rows, none of its pins named. */
    public static FunnelPin ofBoard(long board) {
        return new FunnelPin(0, 0, board);
    }
}
