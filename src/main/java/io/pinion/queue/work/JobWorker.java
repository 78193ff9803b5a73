package io.pinion.queue.work;

import io.pinion.queue.LeasedJob;
import io.smallrye.mutiny.Uni;

/**
 * Runs jobs of one queue inside the service. Must not block: return a {@link Uni} that completes when the job is
 * done; a failure (or not completing within the job's lease) is a failed attempt, retried with the queue's
 * backoff, and its message becomes the job's status.
 */
public interface JobWorker {

    Uni<Void> handle(LeasedJob job);
}
