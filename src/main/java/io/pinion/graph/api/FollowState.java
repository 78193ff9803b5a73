package io.pinion.graph.api;

/**
 * Answer to a follow or unfollow: whether the caller now follows the target, and whether this call changed it.
 */
public record FollowState(boolean following, boolean changed) {
}
