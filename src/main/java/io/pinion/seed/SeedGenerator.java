package io.pinion.seed;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Draws a data set by index from a {@link SeedPlan}: deterministic for a seed (one {@link SplittableRandom} per
 * kind of object, so changing one size does not reshuffle the others). Follows have a power-law shape: the heavy
 * authors are followed by everyone (or, for small plans, by as many as half of the edges allow); every other edge
 * goes from a uniformly drawn follower to a target drawn with weight 1/rank^0.8 over a shuffled order of the other
 * users, so a few users have thousands of followers and most have a handful to tens. Pins land on boards and likes
 * on pins with weight 1/rank^0.7. Nobody follows themselves, and no relationship is drawn twice.
 */
public final class SeedGenerator {

    public static final List<String> INTERESTS = List.of("travel", "food", "diy", "cats", "dogs", "design", "fitness",
            "art", "cars", "gardening", "recipes", "fashion", "quotes", "photography", "hiking", "coffee", "books",
            "music", "weddings", "tattoos");
    static final long DAY_MS = 86_400_000L;
    /**
     * Share of users whose last home-feed visit is older than the feed's 14-day activity window. Consumer social apps
     * see roughly a third to a half of their registered accounts return within a month; a third of this data set
     * did not return within two weeks (docs/seed.md).
     */
    static final double INACTIVE_SHARE = 0.35;

    private SeedGenerator() {
    }

    /** The data set of the plan, with times up to {@code nowMs}. */
    public static SeedData generate(SeedPlan plan, long nowMs) {
        SeedData data = new SeedData(plan, nowMs);
        users(data, new SplittableRandom(plan.seed()));
        boards(data, new SplittableRandom(plan.seed() + 1));
        pins(data, new SplittableRandom(plan.seed() + 2));
        follows(data, new SplittableRandom(plan.seed() + 3));
        likes(data, new SplittableRandom(plan.seed() + 4));
        boardFollows(data, new SplittableRandom(plan.seed() + 5));
        interests(data, new SplittableRandom(plan.seed() + 6));
        samples(data, new SplittableRandom(plan.seed() + 7));
        visits(data, new SplittableRandom(plan.seed() + 8));
        return data;
    }

    private static void users(SeedData data, SplittableRandom random) {
        int n = data.plan.users();
        data.userCreated = new long[n];
        for (int u = 0; u < n; u++) {
            // 90 to 60 days ago, in index order
            data.userCreated[u] = data.nowMs - 90 * DAY_MS + (30 * DAY_MS) * u / n + random.nextInt(1000);
        }
    }

    private static void boards(SeedData data, SplittableRandom random) {
        int n = data.plan.users();
        int max = 2 * data.plan.boardsPerUser() - 1;
        data.boardStart = new int[n + 1];
        for (int u = 0; u < n; u++) {
            data.boardStart[u + 1] = data.boardStart[u] + 1 + random.nextInt(max);
        }
        int boards = data.boardStart[n];
        data.boardOwner = new int[boards];
        data.boardCreated = new long[boards];
        for (int u = 0; u < n; u++) {
            for (int b = data.boardStart[u]; b < data.boardStart[u + 1]; b++) {
                data.boardOwner[b] = u;
                data.boardCreated[b] = data.userCreated[u] + 60_000L * (b - data.boardStart[u] + 1);
            }
        }
    }

    private static void pins(SeedData data, SplittableRandom random) {
        int n = data.plan.pins();
        ZipfPicker boards = new ZipfPicker(data.boardOwner.length, 0.7, random);
        data.pinBoard = new int[n];
        data.pinCreated = new long[n];
        data.pinInterests = new int[n];
        long start = data.nowMs - 30 * DAY_MS;
        for (int p = 0; p < n; p++) {
            data.pinBoard[p] = boards.next(random);
            // ascending times over the last 30 days
            data.pinCreated[p] = start + (30 * DAY_MS - 60_000) * p / Math.max(1, n) + random.nextInt(1000);
            int first = random.nextInt(INTERESTS.size());
            int second = random.nextBoolean() ? random.nextInt(INTERESTS.size()) : first;
            data.pinInterests[p] = first * 100 + second;
        }
    }

    private static void follows(SeedData data, SplittableRandom random) {
        int n = data.plan.users();
        int heavy = data.plan.heavyAuthors();
        long target = (long) n * data.plan.followsPerUser();
        int perHeavy = heavy == 0 ? 0 : (int) Math.min(n - 1, target / 2 / heavy);
        Set<Long> seen = new HashSet<>();
        LongList edges = new LongList();
        for (int h = 0; h < heavy; h++) {
            int[] followers = shuffled(n, random);
            int added = 0;
            for (int i = 0; i < n && added < perHeavy; i++) {
                if (followers[i] != h && seen.add(pair(followers[i], h, n))) {
                    edges.add(pair(followers[i], h, n));
                    added++;
                }
            }
        }
        if (n - heavy > 1) {
            int[] order = shuffled(n - heavy, random);
            ZipfPicker targets = new ZipfPicker(n - heavy, 0.8, random);
            for (long attempts = 0; edges.size() < target && attempts < 3 * target; attempts++) {
                int from = random.nextInt(n);
                int to = heavy + order[targets.next(random)];
                if (from != to && seen.add(pair(from, to, n))) {
                    edges.add(pair(from, to, n));
                }
            }
        }
        long[] all = edges.toArray();
        shuffle(all, random);
        data.followFrom = new int[all.length];
        data.followTo = new int[all.length];
        for (int i = 0; i < all.length; i++) {
            data.followFrom[i] = (int) (all[i] / n);
            data.followTo[i] = (int) (all[i] % n);
        }
        data.followSet = seen;
    }

    private static void likes(SeedData data, SplittableRandom random) {
        int n = data.plan.users();
        long target = data.plan.pins() == 0 ? 0 : (long) n * data.plan.likesPerUser();
        Set<Long> seen = new HashSet<>();
        LongList likes = new LongList();
        if (target > 0) {
            ZipfPicker pins = new ZipfPicker(data.plan.pins(), 0.7, random);
            for (long attempts = 0; likes.size() < target && attempts < 3 * target; attempts++) {
                long like = (long) random.nextInt(n) * data.plan.pins() + pins.next(random);
                if (seen.add(like)) {
                    likes.add(like);
                }
            }
        }
        long[] all = likes.toArray();
        data.likeUser = new int[all.length];
        data.likePin = new int[all.length];
        for (int i = 0; i < all.length; i++) {
            data.likeUser[i] = (int) (all[i] / data.plan.pins());
            data.likePin[i] = (int) (all[i] % data.plan.pins());
        }
    }

    /** Board follows of users one does not follow, and board unfollows of users one does. */
    private static void boardFollows(SeedData data, SplittableRandom random) {
        int n = data.plan.users();
        int boards = data.boardOwner.length;
        IntPairs follows = new IntPairs();
        Set<Long> followed = new HashSet<>();
        ZipfPicker picker = new ZipfPicker(boards, 0.7, random);
        long wanted = Math.round(n * data.plan.boardFollowRate());
        for (long attempts = 0; follows.size() < wanted && attempts < 3 * wanted; attempts++) {
            int user = random.nextInt(n);
            int board = picker.next(random);
            int owner = data.boardOwner[board];
            if (owner != user
                    && !data.followSet.contains(pair(user, owner, n))
                    && followed.add((long) user * boards + board)) {
                follows.add(user, board);
            }
        }
        data.boardFollows = follows;
        IntPairs unfollows = new IntPairs();
        Set<Long> unfollowed = new HashSet<>();
        long wantedUnfollows = data.followFrom.length == 0 ? 0 : Math.round(n * data.plan.boardUnfollowRate());
        for (long attempts = 0; unfollows.size() < wantedUnfollows && attempts < 3 * wantedUnfollows; attempts++) {
            int edge = random.nextInt(data.followFrom.length);
            int owner = data.followTo[edge];
            int count = data.boardStart[owner + 1] - data.boardStart[owner];
            if (count >= 2) {
                int board = data.boardStart[owner] + random.nextInt(count);
                if (unfollowed.add((long) data.followFrom[edge] * boards + board)) {
                    unfollows.add(data.followFrom[edge], board);
                }
            }
        }
        data.boardUnfollows = unfollows;
    }

    private static void interests(SeedData data, SplittableRandom random) {
        int n = data.plan.users();
        IntPairs follows = new IntPairs();
        double perUser = data.plan.interestsPerUser();
        int whole = (int) perUser;
        ZipfPicker picker = new ZipfPicker(INTERESTS.size(), 0.5, random);
        for (int u = 0; u < n; u++) {
            int count = whole + (random.nextDouble() < perUser - whole ? 1 : 0);
            Set<Integer> chosen = new HashSet<>();
            while (chosen.size() < count) {
                chosen.add(picker.next(random));
            }
            int user = u;
            chosen.stream().sorted().forEach(interest -> follows.add(user, interest));
        }
        data.interestFollows = follows;
    }

    /** Sample users for load scripts: not heavy authors, drawn in a shuffled order. */
    private static void samples(SeedData data, SplittableRandom random) {
        int heavy = data.plan.heavyAuthors();
        int[] order = shuffled(data.plan.users() - heavy, random);
        int count = Math.min(data.plan.sampleUsers(), order.length);
        data.samples = new int[count];
        for (int i = 0; i < count; i++) {
            data.samples[i] = heavy + order[i];
        }
    }

    /**
     * Each user's last home-feed visit: for the inactive share, between 15 and 60 days ago (after sign-up); for the
     * others, within the last 14 days, most of them in the last two days.
     */
    private static void visits(SeedData data, SplittableRandom random) {
        int n = data.plan.users();
        data.lastVisit = new long[n];
        for (int u = 0; u < n; u++) {
            if (random.nextDouble() < INACTIVE_SHARE) {
                data.lastVisit[u] = data.nowMs - 15 * DAY_MS - (long) (random.nextDouble() * 45 * DAY_MS);
            } else {
                double daysAgo = 14 * Math.pow(random.nextDouble(), 3);
                data.lastVisit[u] = data.nowMs - (long) (daysAgo * DAY_MS);
            }
        }
    }

    static long pair(int from, int to, int n) {
        return (long) from * n + to;
    }

    /** 0..n-1 in a random order. */
    static int[] shuffled(int n, SplittableRandom random) {
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        for (int i = n - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int swap = order[i];
            order[i] = order[j];
            order[j] = swap;
        }
        return order;
    }

    private static void shuffle(long[] values, SplittableRandom random) {
        for (int i = values.length - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            long swap = values[i];
            values[i] = values[j];
            values[j] = swap;
        }
    }
}
