package io.pinion.feed.fanout;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

import io.pinion.feed.FeedSource;

/**
 * Body of a {@code feed-fanout} job: one record per kind of work, named in the body's {@code kind}, each run by one
 * method of {@link FanoutWorker}. Every kind carries the pin, the board it was saved to and who saved it (who never
 * receives it). Bodies written before these types (one record whose fields chose the work) are still read, see
 * {@link FanoutPage#toJob()}.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "kind")
@JsonSubTypes({
        @JsonSubTypes.Type(value = FanoutJob.Route.class, name = "route"),
        @JsonSubTypes.Type(value = FanoutJob.PushPage.class, name = "push-page"),
        @JsonSubTypes.Type(value = FanoutJob.PurgePage.class, name = "purge-page"),
        @JsonSubTypes.Type(value = FanoutJob.RelatedPurgePage.class, name = "related-purge-page"),
        @JsonSubTypes.Type(value = FanoutJob.InterestIndex.class, name = "interest-index") })
public sealed interface FanoutJob {

    String pin();

    String board();

    String author();

    /**
     * A new (or deleted) pin whose push-or-pull decision the saving request could not make ({@link FanoutRoute}):
     * decided here, then the board's receivers are paged (pushed), its author's recent pins hold it (pulled), or
     * nothing happens (nobody follows the board).
     *
     * @param created  when the pin was created (epoch ms)
     * @param scoredAt the time every receiver's score is computed at, fixed when the fan-out starts
     * @param purge    the pin was deleted: a pushed board's receivers are purged instead
     */
    record Route(String pin, String board, String author, long created, long scoredAt, boolean purge)
            implements FanoutJob {

        /** The first page of a pushed pin's receivers. */
        PushPage firstPage() {
            return new PushPage(pin, board, author, created, scoredAt, null);
        }

        /** The first page of a deleted pushed pin's receivers. */
        PurgePage firstPurgePage() {
            return new PurgePage(pin, board, author, null);
        }
    }

    /**
     * One page of a pushed pin's receivers (the board's): the active ones get a pool row, written by this job when it
     * is the only page, else by a {@code feed-pool-insert} job, with the next page enqueued.
     *
     * @param created  when the pin was created (epoch ms)
     * @param scoredAt the time every receiver's score is computed at, so a page that runs twice writes the same rows
     * @param cursor   the page to read; null for the first
     */
    record PushPage(String pin, String board, String author, long created, long scoredAt, String cursor)
            implements Paged {

        @Override
        public PushPage next(String nextCursor) {
            return new PushPage(pin, board, author, created, scoredAt, nextCursor);
        }

        @Override
        public String dedupeKey() {
            return "fanout:" + pin + ":" + FeedSource.FOLLOWING.label() + "::" + cursor;
        }

        PoolInsert insert(List<String> receivers, List<Long> affinities) {
            return new PoolInsert(pin, board, author, created, scoredAt, FeedSource.FOLLOWING.label(), null, receivers,
                    affinities);
        }
    }

    /** One page of a deleted pin's receivers (the board's): a {@code feed-purge} job for them, and the next page. */
    record PurgePage(String pin, String board, String author, String cursor) implements Paged {

        @Override
        public PurgePage next(String nextCursor) {
            return new PurgePage(pin, board, author, nextCursor);
        }

        @Override
        public String dedupeKey() {
            return "fanout:" + pin + ":" + FeedSource.FOLLOWING.label() + "::purge:" + cursor;
        }
    }

    /**
     * One page of the users whose related pools took the deleted pin's board's pins: a {@code feed-purge} job for them,
     * and the next page.
     */
    record RelatedPurgePage(String pin, String board, String author, String cursor) implements Paged {

        @Override
        public RelatedPurgePage next(String nextCursor) {
            return new RelatedPurgePage(pin, board, author, nextCursor);
        }

        @Override
        public String dedupeKey() {
            return "fanout:" + pin + ":" + FeedSource.RELATED.label() + "::purge:" + cursor;
        }
    }

    /**
     * The pin enters (or, deleted, leaves) the recent pins of one of its interests, which their followers pull; the
     * request that saved it could not write them.
     */
    record InterestIndex(String pin, String board, String author, long created, String interest, boolean removed)
            implements FanoutJob {
    }

    /** A kind of work done a page at a time, each page enqueued by the one before under a key that keeps it single. */
    sealed interface Paged extends FanoutJob {

        String cursor();

        /** The page after this one. */
        Paged next(String nextCursor);

        /** The dedupe key of this page's job, so that a page that runs twice does not fork the chain. */
        String dedupeKey();
    }
}
