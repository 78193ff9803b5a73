package io.pinion.graph;

/**
 * Body of a {@code feed-follow-events} job (JSON). {@code type} is one of {@code follow_user},
 * {@code unfollow_user}, {@code follow_board}, {@code unfollow_board}, {@code follow_interest},
 * {@code unfollow_interest}; the feed backfills on follows and cleans up on unfollows.
 *
 * @param type    what changed
 * @param userId  the follower
 * @param target  the followed user id, board id or interest name
 * @param ownerId for board events, the board's owner; otherwise null
 * @param at      when it changed (epoch ms)
 */
public record FollowEvent(String type, String userId, String target, String ownerId, long at) {
}
