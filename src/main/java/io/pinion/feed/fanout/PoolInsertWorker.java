package io.pinion.feed.fanout;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.feed.FeedFunnel;
import io.pinion.feed.FunnelPin;
import io.pinion.feed.FeedScorer;
import io.pinion.feed.FeedSource;
import io.pinion.feed.PoolEntry;
import io.pinion.feed.PoolKey;
import io.pinion.feed.ScoringInput;
import io.pinion.feed.store.Affinity;
import io.pinion.feed.store.PoolStore;
import io.pinion.id.PinionId;
import io.pinion.queue.LeasedJob;
import io.pinion.queue.work.JobHandler;
import io.pinion.queue.work.JobWorker;
import io.smallrye.mutiny.Uni;

/**
 * Scores one pin for a page of active receivers, at the fan-out's fixed scoring time and with each receiver's
 * affinity for the author (read when the page was), and puts it into each receiver's pool in one batched put. The
 * author never receives their own pin.
 */
@ApplicationScoped
@JobHandler(value = FeedJobs.POOL_INSERT, concurrency = 8, partitions = 4, maxAttempts = 1000, leaseMs = 30_000,
        retryDelayMs = 500, retryMaxDelayMs = 30_000)
public class PoolInsertWorker implements JobWorker {

    private final FeedJobs jobs;
    private final PoolStore pools;
    private final FeedScorer scorer;
    private final Affinity affinity;
    private final FeedFunnel funnel;

    PoolInsertWorker(FeedJobs jobs, PoolStore pools, FeedScorer scorer, Affinity affinity, FeedFunnel funnel) {
        this.jobs = jobs;
        this.pools = pools;
        this.scorer = scorer;
        this.affinity = affinity;
        this.funnel = funnel;
    }

    @Override
    public Uni<Void> handle(LeasedJob job) {
        PoolInsert insert = jobs.read(job.body(), PoolInsert.class);
        FeedSource source = FeedSource.valueOf(insert.source().toUpperCase(Locale.ROOT));
        long pin = PinionId.parse(insert.pin()).value();
        long author = PinionId.parse(insert.author()).value();
        long board = PinionId.parse(insert.board()).value();
        List<Long> receivers = insert.receivers().stream().map(r -> PinionId.parse(r).value()).toList();
        Uni<Map<Long, Long>> affinities = insert.affinities() == null || insert.affinities().size() != receivers.size()
                ? affinity.of(receivers, author)
                : Uni.createFrom().item(() -> {
                    Map<Long, Long> known = new HashMap<>();
                    for (int i = 0; i < receivers.size(); i++) {
                        known.put(receivers.get(i), insert.affinities().get(i));
                    }
                    return known;
                });
        return affinities.chain(found -> {
            List<PoolEntry> entries = new ArrayList<>(receivers.size());
            for (long user : receivers) {
                if (user == author) {
                    continue;
                }
                double score = scorer.score(
                        new ScoringInput(source, insert.created(), insert.scoredAt(), found.getOrDefault(user, 0L)));
                entries.add(new PoolEntry(
                        new PoolKey(user, source, score, pin), author, board, insert.created(), insert.interest()));
            }
            return pools.add(entries)
                    .invoke(() ->
                            funnel.count(FeedFunnel.Stage.PUSHED, source, FeedFunnel.Reason.NONE,
                                    new FunnelPin(pin, author, board), entries.size()));
        });
    }
}
