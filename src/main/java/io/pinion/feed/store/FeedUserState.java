package io.pinion.feed.store;

/**
 * What the feed keeps for one user, for operators and benchmarks: how full the materialized feed is and what the
 * feed state in Redis says.
 *
 * @param userId       the user
 * @param materialized entries of the materialized feed (its count row; null until a write has counted it)
 * @param poolRows     approximately how many rows the user's pools hold
 * @param lastVisit    the last recorded visit (ms; null when never)
 * @param pulledUntil  up to when the pulled sources were taken (ms; null when never)
 * @param chunkSize    the next chunk's size after failed visits (null: the configured size)
 */
public record FeedUserState(String userId, Long materialized, long poolRows, Long lastVisit, Long pulledUntil,
        Integer chunkSize) {
}
