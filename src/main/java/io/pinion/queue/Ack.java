package io.pinion.queue;

import io.pinion.id.PinionId;

/**
 * A worker's verdict on a job.
 *
 * @param attempt      the attempt the lease was given for (counts retries), or null when not known
 * @param lease        the lease sequence the worker's token names ({@code lease_seq}); null acks whatever lease is
 *                     current (the service's own workers, which hold the lease themselves)
 * @param success      SUCCEEDED, or a failure (retried with backoff while attempts remain, else FAILED)
 * @param status       appended to the job's custom status, or null
 * @param retryDelayMs a failure's own delay before the next attempt, overriding the queue's backoff; or null
 */
public record Ack(PinionId id, Integer attempt, Long lease, boolean success, String status, Long retryDelayMs) {
}
