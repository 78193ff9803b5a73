package io.pinion.feed;

import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.id.PinionId;
import io.pinion.queue.LeasedJob;
import io.pinion.queue.work.JobHandler;
import io.pinion.queue.work.JobWorker;
import io.smallrye.mutiny.Uni;

/**
 * Scores one pin for a page of receivers, at the fan-out's fixed scoring time and with each receiver's affinity for
 * the author, and puts it into each receiver's pool in one batched put. The author never receives their own pin.
 */
@ApplicationScoped
@JobHandler(value = FeedJobs.POOL_INSERT, concurrency = 8, partitions = 4, maxAttempts = 1000, leaseMs = 30_000,
        retryDelayMs = 500, retryMaxDelayMs = 30_000)
public class PoolInsertWorker implements JobWorker {

    private final FeedJobs jobs;
    private final PoolStore pools;
    private final FeedScorer scorer;
    private final Affinity affinity;

    PoolInsertWorker(FeedJobs jobs, PoolStore pools, FeedScorer scorer, Affinity affinity) {
        this.jobs = jobs;
        this.pools = pools;
        this.scorer = scorer;
        this.affinity = affinity;
    }

    @Override
    public Uni<Void> handle(LeasedJob job) {
        PoolInsert insert = jobs.read(job.body(), PoolInsert.class);
        FeedSource source = FeedSource.valueOf(insert.source().toUpperCase(java.util.Locale.ROOT));
        long pin = PinionId.parse(insert.pin()).value();
        long author = PinionId.parse(insert.author()).value();
        long board = PinionId.parse(insert.board()).value();
        List<Long> receivers = insert.receivers().stream().map(r -> PinionId.parse(r).value()).filter(u -> u != author).toList();
        return affinity.of(receivers, author).chain(affinities -> {
            List<PoolEntry> entries = new ArrayList<>(receivers.size());
            for (long user : receivers) {
                double score = scorer.score(new ScoringInput(source, insert.created(), insert.scoredAt(),
                        affinities.getOrDefault(user, 0L)));
                entries.add(new PoolEntry(new PoolKey(user, source, score, pin), author, board, insert.created(),
                        insert.interest()));
            }
            return pools.add(entries);
        });
    }
}
