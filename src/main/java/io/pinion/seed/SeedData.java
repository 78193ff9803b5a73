package io.pinion.seed;

import java.util.Arrays;
import java.util.Set;

/**
 * A data set drawn by {@link SeedGenerator}, by index: user {@code u}, board {@code b} (owned by
 * {@code boardOwner[b]}; a user's boards are {@code boardStart[u]} to {@code boardStart[u + 1] - 1}), pin {@code p}
 * (on board {@code pinBoard[p]}). Times are epoch milliseconds. Filled in by the generator, read by the writers.
 */
public final class SeedData {

    final SeedPlan plan;
    final long nowMs;
    long[] userCreated;
    int[] boardStart;
    int[] boardOwner;
    long[] boardCreated;
    int[] pinBoard;
    long[] pinCreated;
    /** Two interest indexes per pin as {@code first * 100 + second} (equal when the pin has one). */
    int[] pinInterests;
    int[] followFrom;
    int[] followTo;
    Set<Long> followSet;
    int[] likeUser;
    int[] likePin;
    IntPairs boardFollows;
    IntPairs boardUnfollows;
    IntPairs interestFollows;
    int[] samples;
    /** Each user's last home-feed visit (epoch ms). */
    long[] lastVisit;

    SeedData(SeedPlan plan, long nowMs) {
        this.plan = plan;
        this.nowMs = nowMs;
    }

    public SeedPlan plan() {
        return plan;
    }

    public int boards() {
        return boardOwner.length;
    }

    /** The pin's owner: its board's owner. */
    int pinOwner(int pin) {
        return boardOwner[pinBoard[pin]];
    }

    /** Followers of each user (explicit user follows). */
    public int[] followerCounts() {
        int[] counts = new int[plan.users()];
        for (int to : followTo) {
            counts[to]++;
        }
        return counts;
    }

    public int follows() {
        return followFrom.length;
    }

    public int likes() {
        return likeUser.length;
    }

    public int boardFollows() {
        return boardFollows.size();
    }

    public int boardUnfollows() {
        return boardUnfollows.size();
    }

    /** Users whose last visit is before {@code beforeMs}. */
    public int inactiveUsers(long beforeMs) {
        int count = 0;
        for (long visit : lastVisit) {
            if (visit < beforeMs) {
                count++;
            }
        }
        return count;
    }

    public int interestFollows() {
        return interestFollows.size();
    }

    /** Whether user {@code from} follows user {@code to} explicitly. */
    public boolean follows(int from, int to) {
        return followSet.contains(SeedGenerator.pair(from, to, plan.users()));
    }

    /** A fingerprint of everything drawn, for checking that a seed repeats. */
    public long fingerprint() {
        long hash = 17;
        for (int[] values : new int[][] {boardStart, pinBoard, pinInterests, followFrom, followTo, likeUser, likePin,
                boardFollows.left(), boardFollows.right(), boardUnfollows.left(), boardUnfollows.right(),
                interestFollows.left(), interestFollows.right(), samples}) {
            hash = hash * 31 + Arrays.hashCode(values);
        }
        return hash;
    }
}
