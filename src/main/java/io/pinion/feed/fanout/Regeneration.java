package io.pinion.feed.fanout;

/**
 * Body of a {@code feed-regenerate} job: a user who had been inactive is back.
 *
 * @param user  the user
 * @param since their last visit before this one (epoch ms): what was pushed to them since then was skipped
 */
public record Regeneration(long user, long since) {
}
