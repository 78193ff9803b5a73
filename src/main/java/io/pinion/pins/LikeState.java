package io.pinion.pins;

/**
 * The caller's like of a pin after a like or unlike.
 */
public record LikeState(String pinId, boolean liked, long likeCount) {
}
