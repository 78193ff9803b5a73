package io.pinion.feed.fanout;

import io.pinion.feed.FeedSource;

/**
 * The shape {@code feed-fanout} bodies had before {@link FanoutJob}: one record whose {@code source}, {@code purge},
 * {@code route} and {@code cursor} together chose the work. Jobs queued in it by an earlier version still run: a body
 * without a {@code kind} is read as this and turned into the job it meant ({@link #toJob()}), and the pages it
 * enqueues next keep the dedupe keys it would have used. Nothing writes it any more; it can go once no queue holds
 * such a body (one release).
 *
 * @param pin       the pin
 * @param board     the board it was saved to
 * @param author    who saved it (never receives it)
 * @param created   when it was created (epoch ms)
 * @param scoredAt  the time every receiver's score is computed at
 * @param source    {@code following}, {@code interests} or {@code related}
 * @param interest  for the interests source, the interest
 * @param cursor    the page to read; null for the first
 * @param purge     the pin was deleted
 * @param route     push or pull is still to be decided
 */
public record FanoutPage(String pin, String board, String author, long created, long scoredAt, String source,
        String interest, String cursor, boolean purge, boolean route) {

    /** The job this body meant, as the worker of the earlier version read it. */
    public FanoutJob toJob() {
        if (FeedSource.INTERESTS.label().equals(source)) {
            return new FanoutJob.InterestIndex(pin, board, author, created, interest, purge);
        }
        if (FeedSource.RELATED.label().equals(source)) {
            return new FanoutJob.RelatedPurgePage(pin, board, author, cursor);
        }
        if (route && cursor == null) {
            return new FanoutJob.Route(pin, board, author, created, scoredAt, purge);
        }
        return purge ? new FanoutJob.PurgePage(pin, board, author, cursor)
                : new FanoutJob.PushPage(pin, board, author, created, scoredAt, cursor);
    }
}
