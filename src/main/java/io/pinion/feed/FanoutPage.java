package io.pinion.feed;

import java.util.List;

/**
 * Body of a {@code feed-fanout} job: one page of the receivers of a new (or deleted) pin. A pushed pin's page
 * writes the pool rows of its active receivers itself when it is the only page, or enqueues a
 * {@code feed-pool-insert} job for them and the next page otherwise; a deleted pin's page becomes a
 * {@code feed-purge} job.
 *
 * @param pin       the pin
 * @param board     the board it was saved to
 * @param author    who saved it (never receives it)
 * @param created   when it was created (epoch ms)
 * @param scoredAt  the time every receiver's score is computed at, fixed when the fan-out starts, so a job that
 *                  runs twice writes the same pool rows
 * @param source    {@code following} (the board's receivers), {@code interests} (the interest's recent pins
 *                  only: interests are pulled) or {@code related} (purges: users whose related pools took the
 *                  board's pins)
 * @param interest  for the interests source, the interest
 * @param cursor    the page to read; null for the first
 * @param purge     the pin was deleted
 * @param route     push or pull is still to be decided (the request that saved the pin could not)
 */
public record FanoutPage(String pin, String board, String author, long created, long scoredAt, String source,
        String interest, String cursor, boolean purge, boolean route) {

    FanoutPage next(String nextCursor) {
        return new FanoutPage(pin, board, author, created, scoredAt, source, interest, nextCursor, purge, false);
    }

    /** The page decided to push: the rest of the chain does not decide again. */
    FanoutPage pushed() {
        return new FanoutPage(pin, board, author, created, scoredAt, source, interest, cursor, purge, false);
    }

    /** The dedupe key of the job for this page, so that a page that runs twice does not fork the chain. */
    String dedupeKey() {
        return "fanout:" + pin + ":" + source + ":" + (interest == null ? "" : interest) + ":" + (purge ? "purge:" : "")
                + cursor;
    }

    PoolPurge purgeFrom(List<String> receivers) {
        return new PoolPurge(pin, board, author, receivers);
    }

    PoolInsert insert(List<String> receivers, List<Long> affinities) {
        return new PoolInsert(pin, board, author, created, scoredAt, source, interest, receivers, affinities);
    }
}
