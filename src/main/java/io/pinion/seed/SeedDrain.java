package io.pinion.seed;

import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.feed.fanout.FeedJobs;
import io.pinion.graph.FollowEvents;
import io.pinion.queue.JobQueries;
import io.pinion.queue.JobState;
import io.pinion.queue.QueueRegistry;
import io.pinion.queue.QueueStats;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/**
 * Waits, at the end of a seed, until the jobs the seed started are done: the follow backfills of the sample users
 * and the pool inserts they fan out to, run by this process's own in-app workers. A service started after
 * {@code bin/seed} then begins with the sample users' pools filled and its queues empty, instead of draining tens of
 * thousands of backfills under the first load it is given.
 */
@ApplicationScoped
class SeedDrain {

    private static final List<String> QUEUES = List.of(FollowEvents.QUEUE, FeedJobs.FANOUT, FeedJobs.POOL_INSERT,
            FeedJobs.PERSIST, FeedJobs.TRIM);
    private static final Duration POLL = Duration.ofSeconds(2);

    private final QueueRegistry registry;
    private final JobQueries queries;

    SeedDrain(QueueRegistry registry, JobQueries queries) {
        this.registry = registry;
        this.queries = queries;
    }

    /** Blocks until no job of the feed's queues is pending or running, or {@code limit} passed; the jobs left. */
    long await(Duration limit, PrintStream log) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        long started = System.nanoTime();
        long lastLog = 0;
        while (true) {
            long left = waiting().await().atMost(Duration.ofSeconds(30));
            long now = System.nanoTime();
            if (left == 0 || now > deadline) {
                log.printf("feed jobs: %d left after %.0f s%n", left, (now - started) / 1e9);
                return left;
            }
            if (now - lastLog > Duration.ofSeconds(10).toNanos()) {
                log.printf("feed jobs: %d pending or running%n", left);
                lastLog = now;
            }
            Thread.sleep(POLL.toMillis());
        }
    }

    private Uni<Long> waiting() {
        return Multi.createFrom()
                .iterable(QUEUES)
                .onItem()
                .transformToUniAndConcatenate(name -> registry.get(name)
                        .chain(queue -> queries.stats(queue, java.util.Map.of()))
                        .map(SeedDrain::busy)
                        .onFailure()
                        .recoverWithItem(0L))
                .collect()
                .with(Collectors.summingLong(Long::longValue));
    }

    private static long busy(QueueStats stats) {
        return stats.counts().getOrDefault(JobState.PENDING, 0L) + stats.counts().getOrDefault(JobState.RUNNING, 0L);
    }
}
