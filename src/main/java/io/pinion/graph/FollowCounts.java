package io.pinion.graph;

/**
 * Exact relationship counts of a user.
 *
 * @param followers          explicit followers
 * @param implicitFollowers  users who follow one or more of this user's boards but not the user
 * @param following          users followed explicitly
 * @param implicitFollowing  users of whom only single boards are followed
 * @param followedBoards     boards followed one by one (boards of followed users are not counted)
 * @param interests          interests followed
 */
public record FollowCounts(long followers, long implicitFollowers, long following, long implicitFollowing,
        long followedBoards, long interests) {

    /** A new user's counts. */
    public static final FollowCounts NONE = new FollowCounts(0, 0, 0, 0, 0, 0);
}
