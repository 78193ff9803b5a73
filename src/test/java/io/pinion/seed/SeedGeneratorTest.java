package io.pinion.seed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

import org.junit.jupiter.api.Test;

/** The drawn data set: repeatable from its seed, power-law shaped, and free of self-follows and duplicates. */
class SeedGeneratorTest {

    private static final long NOW = 1_800_000_000_000L;

    @Test
    void theSameSeedDrawsTheSameDataSetAndAnotherSeedAnother() {
        SeedPlan plan = SeedPlan.forUsers(3000, 7);
        assertEquals(SeedGenerator.generate(plan, NOW).fingerprint(), SeedGenerator.generate(plan, NOW).fingerprint());
        assertEquals(
                SeedGenerator.generate(plan, NOW).fingerprint(),
                SeedGenerator.generate(plan, NOW + 86_400_000).fingerprint(),
                "the time of the run moves the times, not the graph");
        assertNotEquals(SeedGenerator.generate(plan, NOW).fingerprint(),
                SeedGenerator.generate(SeedPlan.forUsers(3000, 8), NOW).fingerprint());
    }

    @Test
    void countsMatchThePlanWithoutSelfFollowsOrDuplicates() {
        SeedPlan plan = SeedPlan.forUsers(3000, 7);
        SeedData data = SeedGenerator.generate(plan, NOW);
        assertEquals(30_000, data.plan().pins());
        assertEquals(90_000, data.follows(), "30 follows per user");
        assertEquals(15_000, data.likes(), "5 likes per user");
        assertEquals(1500, data.boardFollows());
        assertEquals(600, data.boardUnfollows());
        assertTrue(
                Math.abs(data.interestFollows() - 4500) < 300,
                "about 1.5 interests per user: " + data.interestFollows());
        assertTrue(
                data.boards() > 3000 * 2.5 && data.boards() < 3000 * 3.5, "about 3 boards per user: " + data.boards());
        Set<Long> pairs = new HashSet<>();
        for (int i = 0; i < data.follows(); i++) {
            assertNotEquals(data.followFrom[i], data.followTo[i], "a self-follow");
            assertTrue(pairs.add((long) data.followFrom[i] * 3000 + data.followTo[i]), "a follow drawn twice");
        }
        for (int i = 0; i < data.boardFollows(); i++) {
            int owner = data.boardOwner[data.boardFollows.right(i)];
            assertNotEquals(owner, data.boardFollows.left(i), "a follow of one's own board");
            assertTrue(!data.follows(data.boardFollows.left(i), owner), "a board follow of a followed user's board");
        }
        for (int i = 0; i < data.boardUnfollows(); i++) {
            assertTrue(data.follows(data.boardUnfollows.left(i), data.boardOwner[data.boardUnfollows.right(i)]),
                    "an unfollow of a board whose owner is not followed");
        }
        for (int p = 0; p < data.plan().pins(); p++) {
            assertTrue(data.pinCreated[p] <= NOW && data.pinCreated[p] > data.boardCreated[data.pinBoard[p]]);
        }
    }

    @Test
    void followersFollowAPowerLaw() {
        SeedData data = SeedGenerator.generate(SeedPlan.forUsers(100_000, 42), NOW);
        int[] followers = data.followerCounts();
        int[] sorted = followers.clone();
        Arrays.sort(sorted);
        for (int heavy = 0; heavy < 3; heavy++) {
            assertEquals(99_999, followers[heavy], "a heavy author is followed by everyone else");
        }
        int median = sorted[sorted.length / 2];
        int p99 = sorted[(int) (sorted.length * 0.99)];
        int fourth = sorted[sorted.length - 4];
        long tens = Arrays.stream(followers).filter(count -> count >= 10).count();
        assertTrue(median >= 5 && median <= 30, "median " + median);
        assertTrue(tens > followers.length / 2, "most users have tens of followers: " + tens);
        assertTrue(p99 >= 5 * median, "a long tail: p99 " + p99 + ", median " + median);
        assertTrue(fourth > 10 * p99, "the head: the busiest non-heavy user has " + fourth + ", p99 " + p99);
    }

    @Test
    void theProgressLineShowsRateAndEta() {
        assertEquals("pins             [############------------]  50% 500/1,000  100/s  ETA 5.0s",
                SeedProgress.line("pins", 500, 1000, 5));
        assertTrue(SeedProgress.line("pins", 1000, 1000, 10).endsWith("done in 10.0s"));
    }
}
