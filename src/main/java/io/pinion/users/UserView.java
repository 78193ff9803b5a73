package io.pinion.users;

import java.time.Instant;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import io.pinion.graph.FollowCounts;

/**
 * A user as the API shows it.
 */
@Schema(name = "User")
public record UserView(
        @Schema(description = "User id (64-bit, as a string)", examples = "13194139533313") String id,
        String username,
        String displayName,
        Instant createdAt,
        Counts counts) {

    /** The same user with the follower graph's counts filled in. */
    public UserView withFollows(FollowCounts follows) {
        return new UserView(
                id,
                username,
                displayName,
                createdAt,
                new Counts(
                        counts.boards(),
                        counts.pins(),
                        counts.likes(),
                        follows.followers(),
                        follows.implicitFollowers(),
                        follows.following(),
                        follows.implicitFollowing(),
                        follows.followedBoards(),
                        follows.interests()));
    }

    /**
     * Exact counts. The follow counts come from the follower graph; they are null while its Redis instance is
     * unreachable (the rest of the profile is still served).
     */
    @Schema(name = "UserCounts")
    public record Counts(
            long boards,
            long pins,
            long likes,
            @Schema(nullable = true) Long followers,

            @Schema(nullable = true, description = "users following one or more boards but not the user")
            Long implicitFollowers,

            @Schema(nullable = true) Long following,

            @Schema(nullable = true, description = "users of whom only single boards are followed")
            Long implicitFollowing,

            @Schema(nullable = true, description = "boards followed one by one")
            Long followedBoards,

            @Schema(nullable = true) Long interests) {

        public Counts(long boards, long pins, long likes) {
            this(boards, pins, likes, null, null, null, null, null, null);
        }
    }
}
