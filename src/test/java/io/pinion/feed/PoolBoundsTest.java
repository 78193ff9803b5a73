package io.pinion.feed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.micrometer.core.instrument.MeterRegistry;
import io.pinion.Wait;
import io.pinion.feed.fanout.FollowEventWorker;
import io.pinion.feed.fanout.PoolCap;
import io.pinion.feed.store.FeedStates;
import io.pinion.feed.store.PoolStore;
import io.pinion.graph.FollowEvent;
import io.pinion.graph.FollowEvents;
import io.pinion.id.ObjectType;
import io.pinion.id.PinionId;
import io.pinion.queue.LeasedJob;
import io.pinion.stack.StackTest;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Multi;

/**
 * Pools stay bounded and cheap to clean: past {@code pinion.feed.pool-max} a trim keeps the best rows; an unfollow
 * removes the author's rows from a 100,000-row pool reading only the index rows of that author.
 */
@QuarkusTest
@StackTest
class PoolBoundsTest {

    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final AtomicLong USERS = new AtomicLong(50_000_000_000L + (System.nanoTime() & 0xfffffffL));

    @Inject
    PoolStore pools;
    @Inject
    PoolCap cap;
    @Inject
    FeedStates states;
    @Inject
    FeedConfig config;
    @Inject
    FollowEventWorker followEvents;
    @Inject
    MeterRegistry metrics;
    @Inject
    ObjectMapper json;

    @Test
    void poolsAboveTheCapAreTrimmedLowestScoresFirst() throws Exception {
        long user = PinionId.of(1, ObjectType.USER, USERS.incrementAndGet()).value();
        int rows = config.poolMax() + config.poolMax() / 5;
        Random random = new Random(5);
        List<PoolEntry> entries = new ArrayList<>();
        for (int i = 0; i < rows; i++) {
            FeedSource source = i % 4 == 0 ? FeedSource.RELATED : FeedSource.FOLLOWING;
            entries.add(new PoolEntry(new PoolKey(user, source, random.nextDouble() * 100, 10_000 + i), 7, 8, 0));
        }
        pools.add(entries).await().atMost(WAIT);
        cap.changed(user, rows).await().atMost(WAIT);

        Wait.within(Eventually.JOBS_MS, () -> pools.everything(user).await().atMost(WAIT).size() <= config.poolMax(),
                "the pool trimmed to its cap");
        List<Long> kept = pools.everything(user).await().atMost(WAIT).stream()
                .map(e -> e.key().pin())
                .sorted()
                .toList();
        List<Long> best = entries.stream().sorted(PoolEntry.BEST_FIRST).limit(config.poolMax()).map(e -> e.key().pin())
                .sorted().toList();
        assertEquals(best, kept, "the best rows across the sources stay");
        // the trim records the pool's size after its deletes: the state may lag the pool for a moment
        Wait.within(Eventually.JOBS_MS, () -> states.read(user).await().atMost(WAIT).poolRows() == config.poolMax(),
                "the exact size recorded");
        assertEquals(config.poolMax(), states.read(user).await().atMost(WAIT).poolRows(), "the exact size is recorded");
    }

    @Test
    void anUnfollowRemovesTheAuthorsRowsFromAHundredThousandRowPoolReadingOnlyThem() throws Exception {
        long user = PinionId.of(2, ObjectType.USER, USERS.incrementAndGet()).value();
        long gone = PinionId.of(3, ObjectType.USER, USERS.incrementAndGet()).value();
        int total = 100_000;
        int ofGone = 40;
        List<List<PoolEntry>> batches = new ArrayList<>();
        List<PoolEntry> batch = new ArrayList<>();
        for (int i = 0; i < total; i++) {
            long author = i < ofGone ? gone : 1_000 + i % 997;
            batch.add(new PoolEntry(new PoolKey(user, FeedSource.FOLLOWING, (i * 7919 % total) / 1000.0, 1_000_000 + i),
                    author, 20_000 + author, 0));
            if (batch.size() == 5_000) {
                batches.add(batch);
                batch = new ArrayList<>();
            }
        }
        Multi.createFrom().iterable(batches).onItem().transformToUni(pools::add).merge(4).collect().last()
                .await().atMost(WAIT);
        double readBefore = counter("pinion.feed.index.rows.read");

        long start = System.nanoTime();
        FollowEvent unfollow = new FollowEvent("unfollow_user", Long.toString(user), Long.toString(gone), null, 0);
        followEvents
                .handle(new LeasedJob(
                        PinionId.decode(user),
                        FollowEvents.QUEUE,
                        null,
                        0,
                        json.writeValueAsBytes(unfollow),
                        1,
                        1L,
                        1,
                        0,
                        0,
                        0))
                .await()
                .atMost(WAIT);
        long tookMs = (System.nanoTime() - start) / 1_000_000;
        System.out.printf("unfollow against a %d-row pool: %d ms, %.0f index rows read%n", total, tookMs,
                counter("pinion.feed.index.rows.read") - readBefore);

        double read = counter("pinion.feed.index.rows.read") - readBefore;
        assertTrue(
                read >= ofGone && read < 1_000,
                "only the author's index rows were read (other jobs may read a few): " + read);
        List<PoolEntry> left = pools.top(user, FeedSource.FOLLOWING, total).await().atMost(WAIT);
        assertEquals(total - ofGone, left.size());
        assertTrue(left.stream().noneMatch(e -> e.author() == gone));
        assertTrue(left.stream()
                        .sorted(Comparator.comparingLong(e -> e.key().pin()))
                        .findFirst()
                        .orElseThrow()
                        .key()
                        .pin()
                == 1_000_000 + ofGone);
        pools.remove(left).await().atMost(WAIT); // leaves no 100,000-row pool for the trim job and the tests after
    }

    private double counter(String name) {
        return metrics.find(name).counters().stream().mapToDouble(c -> c.count()).sum();
    }
}
