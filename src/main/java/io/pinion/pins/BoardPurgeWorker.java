package io.pinion.pins;

import java.nio.charset.StandardCharsets;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.id.PinionId;
import io.pinion.queue.LeasedJob;
import io.pinion.queue.work.JobHandler;
import io.pinion.queue.work.JobWorker;
import io.smallrye.mutiny.Uni;

/** Runs the purge jobs of deleted boards ({@link BoardPurges}); a run that fails is retried with backoff. */
@ApplicationScoped
@JobHandler(value = BoardPurges.QUEUE, concurrency = 2, partitions = 2, maxAttempts = 1000, leaseMs = 120_000,
        retryDelayMs = 1_000, retryMaxDelayMs = 60_000)
public class BoardPurgeWorker implements JobWorker {

    private final BoardPurges purges;

    BoardPurgeWorker(BoardPurges purges) {
        this.purges = purges;
    }

    @Override
    public Uni<Void> handle(LeasedJob job) {
        return purges.purgeRun(PinionId.parse(new String(job.body(), StandardCharsets.UTF_8)), job.attempt());
    }
}
