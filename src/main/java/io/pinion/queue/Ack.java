package io.pinion.queue;

import io.pinion.id.PinionId;

/**
 * A worker's verdict on a job.
 *
 * @param attempt      the lease token handed out with the job; null acks whatever lease is current
 * @param success      SUCCEEDED, or a failure (retried with backoff while attempts remain, else FAILED)
 * @param status       appended to the job's custom status, or null
 * @param retryDelayMs a failure's own delay before the next attempt, overriding the queue's backoff; or null
 */
public record Ack(PinionId id, Integer attempt, boolean success, String status, Long retryDelayMs) {
}
