package io.pinion.seed;

/**
 * What {@code bin/seed} creates. Sizes are totals except where named per user; {@code seed} makes the data set
 * repeatable: the same plan gives the same users, boards, pins, likes and follows (by index), whatever the ids.
 *
 * @param users           users to create
 * @param boardsPerUser   boards per user on average (each user has 1 to 2 × this − 1)
 * @param pins            pins, over the last 30 days, on boards drawn with a Zipf skew
 * @param followsPerUser  explicit user follows per user on average, heavy authors' followers included
 * @param heavyAuthors    users followed by (almost) everyone: the power-law head
 * @param likesPerUser    likes per user on average
 * @param boardFollowRate share of users who follow one board of a user they do not follow
 * @param boardUnfollowRate share of users who unfollow one board of a user they follow
 * @param interestsPerUser interest follows per user on average
 * @param sampleUsers     users listed in the manifest with a token, for load scripts
 * @param prefix          usernames are {@code <prefix>_<index>}
 * @param seed            the random seed
 */
public record SeedPlan(int users, int boardsPerUser, int pins, int followsPerUser, int heavyAuthors, int likesPerUser,
        double boardFollowRate, double boardUnfollowRate, double interestsPerUser, int sampleUsers, String prefix,
        long seed) {

    public SeedPlan {
        require(users >= 2, "users must be at least 2");
        require(boardsPerUser >= 1 && boardsPerUser <= 50, "boards per user must be 1-50");
        require(pins >= 0, "pins must not be negative");
        require(followsPerUser >= 0 && followsPerUser < users, "follows per user must be below the number of users");
        require(heavyAuthors >= 0 && heavyAuthors < users, "heavy authors must be fewer than users");
        require(likesPerUser >= 0, "likes per user must not be negative");
        require(boardFollowRate >= 0 && boardFollowRate <= 1, "board follow rate must be 0-1");
        require(boardUnfollowRate >= 0 && boardUnfollowRate <= 1, "board unfollow rate must be 0-1");
        require(
                interestsPerUser >= 0 && interestsPerUser <= SeedGenerator.INTERESTS.size(),
                "interests per user out of range");
        require(sampleUsers >= 0, "sample users must not be negative");
        require(prefix != null && prefix.matches("[a-z0-9]{1,12}"), "prefix must be 1-12 of a-z 0-9");
    }

    /** The plan for {@code users} users with the defaults scaled to it (10 pins, 30 follows, 5 likes per user). */
    public static SeedPlan forUsers(int users, long seed) {
        return new SeedPlan(users, 3, users * 10, Math.min(30, users - 1), users >= 30_000 ? 3 : 1, 5, 0.5, 0.2, 1.5,
                Math.min(1000, users / 2), "s" + seed, seed);
    }

    private static void require(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }
}
