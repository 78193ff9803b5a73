package io.pinion.graph.api;

/**
 * Whether a user follows a board: explicitly, or through its owner without having unfollowed it.
 */
public record BoardFollowCheck(boolean following) {
}
