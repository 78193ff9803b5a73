package io.pinion.feed.fanout;

/**
 * Body of a {@code feed-trim} job: bring the user's pools back to {@code pinion.feed.pool-max} rows.
 *
 * @param user the user
 */
public record PoolTrim(long user) {
}
