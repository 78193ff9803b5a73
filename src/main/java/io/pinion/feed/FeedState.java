package io.pinion.feed;

/**
 * What the home feed keeps per user in Redis, next to the user's graph keys.
 *
 * @param lastVisit   when the user last opened the home feed (ms; null when never recorded)
 * @param pulledUntil up to when the user's pulled sources were taken in a persisted chunk (ms; null when never)
 * @param chunkSize   the size of the next chunk after failed visits (null: the configured size)
 * @param poolRows    approximately how many rows the user's pools hold (a trim corrects it)
 */
public record FeedState(Long lastVisit, Long pulledUntil, Integer chunkSize, long poolRows) {

    /** A user of whom nothing is recorded. */
    public static final FeedState NONE = new FeedState(null, null, null, 0);

    /** Whether the user counts as inactive at {@code now}: a visit is recorded and is older than {@code after} ms. */
    public boolean inactive(long now, long afterMs) {
        return lastVisit != null && lastVisit < now - afterMs;
    }
}
