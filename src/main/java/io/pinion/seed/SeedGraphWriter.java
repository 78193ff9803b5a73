package io.pinion.seed;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.graph.FollowBulk;
import io.pinion.graph.FollowEvent;
import io.pinion.graph.FollowEvents;
import io.pinion.graph.FollowWrites;
import io.pinion.graph.GraphConfig;
import io.pinion.graph.InterestPins;
import io.pinion.id.PinionId;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/**
 * Writes a {@link SeedData} set's follow graph: user follows in bulk ({@link FollowBulk}, the settled state of
 * each pair, at its time in the last 30 days), then board follows, board unfollows and interest follows one by one
 * through {@link FollowWrites} (they involve implicit follows, so they take the graph's own scripts), each
 * interest's most recent pins ({@link InterestPins}, as the pins' fan-out would have left them), then
 * follow-backfill events for the sample users so that their home feeds have pins to show.
 */
@ApplicationScoped
class SeedGraphWriter {

    static final int CONCURRENCY = 64;

    private final FollowBulk bulk;
    private final FollowWrites writes;
    private final FollowEvents events;
    private final InterestPins interestPins;
    private final GraphConfig config;

    SeedGraphWriter(FollowBulk bulk, FollowWrites writes, FollowEvents events, InterestPins interestPins,
            GraphConfig config) {
        this.bulk = bulk;
        this.writes = writes;
        this.events = events;
        this.interestPins = interestPins;
        this.config = config;
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

    /** Adds to each interest's recent pins its newest pins, up to {@code pinion.graph.interest-recent-pins}. */
    List<Supplier<Uni<Void>>> interestPinWrites(SeedData data, SeedIds ids) {
        int keep = config.interestRecentPins();
        int[] taken = new int[SeedGenerator.INTERESTS.size()];
        List<Supplier<Uni<Void>>> calls = new ArrayList<>();
        for (int p = data.pinCreated.length - 1; p >= 0 && calls.size() < keep * taken.length; p--) {
            long pin = ids.pins[p];
            long created = data.pinCreated[p];
            for (String interest : SeedNames.interests(data.pinInterests[p])) {
                int k = SeedGenerator.INTERESTS.indexOf(interest);
                if (taken[k] < keep) {
                    taken[k]++;
                    calls.add(() -> interestPins.add(interest, pin, created));
                }
            }
        }
        return calls;
    }

    /** Runs the calls {@link #CONCURRENCY} at a time; progress counts calls. */
    <T> Uni<Void> run(List<Supplier<Uni<T>>> calls, SeedProgress progress) {
        return Multi.createFrom().iterable(calls)
                .onItem().transformToUni(call -> call.get().invoke(ignored -> progress.add(1)))
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
