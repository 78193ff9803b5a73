package io.pinion.seed;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.graph.FollowBulk;
import io.pinion.graph.FollowEvent;
import io.pinion.graph.FollowEvents;
import io.pinion.graph.FollowWrites;
import io.pinion.graph.GraphConfig;
import io.pinion.feed.FeedConfig;
import io.pinion.feed.store.FeedStates;
import io.pinion.feed.store.PulledAuthors;
import io.pinion.graph.RecentPin;
import io.pinion.graph.RecentPins;
import io.pinion.failure.Unavailable;
import io.pinion.id.PinionId;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/**
 * Writes a {@link SeedData} set's follow graph: user follows in bulk ({@link FollowBulk}, the settled state of
 * each pair, at its time in the last 30 days), then board follows, board unfollows and interest follows one by one
 * through {@link FollowWrites} (they involve implicit follows, so they take the graph's own scripts), each
 * interest's and each pulled author's most recent pins ({@link RecentPins}, as the pins' fan-out would have left
 * them), every user's last home-feed visit, then follow-backfill events for the sample users so that their home
 * feeds have pins to show.
 */
@ApplicationScoped
class SeedGraphWriter {

    static final int CONCURRENCY = 64;

    private final FollowBulk bulk;
    private final FollowWrites writes;
    private final FollowEvents events;
    private final RecentPins recentPins;
    private final PulledAuthors pulledAuthors;
    private final FeedStates feedStates;
    private final GraphConfig config;
    private final FeedConfig feed;

    SeedGraphWriter(FollowBulk bulk, FollowWrites writes, FollowEvents events, RecentPins recentPins,
            PulledAuthors pulledAuthors, FeedStates feedStates, GraphConfig config, FeedConfig feed) {
        this.bulk = bulk;
        this.writes = writes;
        this.events = events;
        this.recentPins = recentPins;
        this.pulledAuthors = pulledAuthors;
        this.feedStates = feedStates;
        this.config = config;
        this.feed = feed;
    }

    /** Every user follow as two sorted-set entries; progress counts entries (two per follow). */
    Uni<Void> userFollows(SeedData data, SeedIds ids, SeedProgress progress) {
        int n = data.follows();
        long[] from = new long[n];
        long[] to = new long[n];
        long[] at = new long[n];
        long startMicros = (data.nowMs - 30 * SeedGenerator.DAY_MS) * 1000;
        long stepMicros = Math.max(1, 30 * SeedGenerator.DAY_MS * 1000 / Math.max(1, n));
        for (int i = 0; i < n; i++) {
            from[i] = ids.users[data.followFrom[i]];
            to[i] = ids.users[data.followTo[i]];
            at[i] = startMicros + i * stepMicros;
        }
        return bulk.followUsers(from, to, at, 16, progress::add);
    }

    Uni<Void> boardFollows(SeedData data, SeedIds ids, SeedProgress progress) {
        List<Supplier<Uni<Boolean>>> calls = new ArrayList<>();
        for (int i = 0; i < data.boardFollows.size(); i++) {
            PinionId user = PinionId.decode(ids.users[data.boardFollows.left(i)]);
            PinionId board = PinionId.decode(ids.boards[data.boardFollows.right(i)]);
            calls.add(() -> writes.followBoard(user, board));
        }
        for (int i = 0; i < data.boardUnfollows.size(); i++) {
            PinionId user = PinionId.decode(ids.users[data.boardUnfollows.left(i)]);
            PinionId board = PinionId.decode(ids.boards[data.boardUnfollows.right(i)]);
            calls.add(() -> writes.unfollowBoard(user, board));
        }
        for (int i = 0; i < data.interestFollows.size(); i++) {
            PinionId user = PinionId.decode(ids.users[data.interestFollows.left(i)]);
            String interest = SeedGenerator.INTERESTS.get(data.interestFollows.right(i));
            calls.add(() -> writes.followInterest(user, interest));
        }
        return run(calls, progress);
    }

    /**
     * Adds to each interest's recent pins its newest pins, up to {@code pinion.graph.interest-recent-pins}, and to the
     * recent pins of each author with more followers than {@code pinion.feed.pull-threshold} (pulled) theirs, up to
     * {@code pinion.graph.author-recent-pins}, registering the author as pulled.
     */
    List<Supplier<Uni<Void>>> recentPinWrites(SeedData data, SeedIds ids) {
        int keepInterest = config.interestRecentPins();
        int keepAuthor = config.authorRecentPins();
        int[] taken = new int[SeedGenerator.INTERESTS.size()];
        int[] followers = data.followerCounts();
        int[] authorTaken = new int[followers.length];
        List<Supplier<Uni<Void>>> calls = new ArrayList<>();
        for (int p = data.pinCreated.length - 1; p >= 0; p--) {
            int owner = data.pinOwner(p);
            RecentPin pin =
                    new RecentPin(ids.pins[p], ids.boards[data.pinBoard[p]], ids.users[owner], data.pinCreated[p]);
            for (String interest : SeedNames.interests(data.pinInterests[p])) {
                int k = SeedGenerator.INTERESTS.indexOf(interest);
                if (taken[k] < keepInterest) {
                    taken[k]++;
                    calls.add(() -> recentPins.add(recentPins.interest(interest), pin));
                }
            }
            if (followers[owner] > feed.pullThreshold() && authorTaken[owner] < keepAuthor) {
                if (authorTaken[owner]++ == 0) {
                    calls.add(() -> pulledAuthors.mark(pin.author(), pin.created()));
                }
                calls.add(() -> recentPins.add(recentPins.author(pin.author()), pin));
            }
        }
        return calls;
    }

    /** Every user's last home-feed visit, a thousand users per call. */
    List<Supplier<Uni<Void>>> visitWrites(SeedData data, SeedIds ids) {
        List<Supplier<Uni<Void>>> calls = new ArrayList<>();
        for (int start = 0; start < data.lastVisit.length; start += 1000) {
            Map<Long, Long> visits = new HashMap<>();
            for (int u = start; u < Math.min(data.lastVisit.length, start + 1000); u++) {
                visits.put(ids.users[u], data.lastVisit[u]);
            }
            calls.add(() -> feedStates.recordVisits(visits));
        }
        return calls;
    }

    /**
     * Runs the calls {@link #CONCURRENCY} at a time; progress counts calls. Every call is idempotent, so one that
     * meets a busy backend (a statement over its time limit on a loaded machine) is run again, up to five times.
     */
    <T> Uni<Void> run(List<Supplier<Uni<T>>> calls, SeedProgress progress) {
        return Multi.createFrom().iterable(calls)
                .onItem().transformToUni(call -> Uni.createFrom().<T>deferred(call::get)
                        .onFailure(Unavailable.class).retry()
                        .withBackOff(Duration.ofMillis(200), Duration.ofSeconds(2)).atMost(5)
                        .invoke(ignored -> progress.add(1)))
                .merge(CONCURRENCY)
                .collect().last().replaceWithVoid();
    }

    /**
     * A {@code follow_user} event for every user each sample user follows: the feed backfills those authors' recent
     * pins into the sample users' pools (the service's feed workers run them, now or at its next start).
     */
    Uni<Integer> backfillSamples(SeedData data, SeedIds ids) {
        List<FollowEvent> backfills = new ArrayList<>();
        Set<Integer> samples = new HashSet<>();
        for (int sample : data.samples) {
            samples.add(sample);
        }
        for (int i = 0; i < data.follows(); i++) {
            if (samples.contains(data.followFrom[i])) {
                backfills.add(new FollowEvent("follow_user", Long.toString(ids.users[data.followFrom[i]]),
                        Long.toString(ids.users[data.followTo[i]]), null, data.nowMs));
            }
        }
        return events.enqueueAll(backfills).replaceWith(backfills.size());
    }
}
