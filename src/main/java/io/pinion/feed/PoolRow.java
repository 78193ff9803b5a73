package io.pinion.feed;

/**
 * One pool row of a user in a job body (the user is the job's): where it sorts and what its index row needs.
 *
 * @param source   the source's code
 * @param score    the row's score
 * @param pin      the pin
 * @param author   the pin's author
 * @param board    the pin's board
 * @param created  when the pin was created (epoch ms)
 * @param interest for the interests source, the interest; otherwise null
 */
public record PoolRow(int source, double score, long pin, long author, long board, long created, String interest) {

    public static PoolRow of(PoolEntry entry) {
        return new PoolRow(entry.key().source().code(), entry.key().score(), entry.key().pin(), entry.author(),
                entry.board(), entry.pinCreated(), entry.interest());
    }

    public PoolEntry entry(long user) {
        return new PoolEntry(
                new PoolKey(user, FeedSource.ofCode(source).orElseThrow(), score, pin),
                author,
                board,
                created,
                interest);
    }
}
