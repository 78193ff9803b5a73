package io.pinion.feed;

import java.util.List;

/**
 * Body of a {@code feed-fanout} job: one page of the receivers of a new (or deleted) pin, read from the follower graph, is turned
 * into one {@code feed-pool-insert} job, and the next page into the next {@code feed-fanout} job.
 *
 * @param pin       the new pin
 * @param board     the board it was saved to
 * @param author    who saved it (never receives it)
 * @param created   when it was created (epoch ms)
 * @param scoredAt  the time every receiver's score is computed at, fixed when the fan-out starts, so a job that
 *                  runs twice writes the same pool rows
 * @param source    {@code following} (the board's receivers) or {@code interests} (an interest's followers)
 * @param interest  for the interests source, the interest whose followers are paged
 * @param cursor    the page to read; null for the first
 * @param purge     the pin was deleted: each page becomes a {@code feed-purge} job instead of an insert
 */
public record FanoutPage(String pin, String board, String author, long created, long scoredAt, String source,
        String interest, String cursor, boolean purge) {

    FanoutPage next(String nextCursor) {
        return new FanoutPage(pin, board, author, created, scoredAt, source, interest, nextCursor, purge);
    }

    PoolPurge purgeFrom(List<String> receivers) {
        return new PoolPurge(pin, receivers);
    }

    PoolInsert insert(List<String> receivers) {
        return new PoolInsert(pin, board, author, created, scoredAt, source, interest, receivers);
    }
}
