package io.pinion.queue;

import io.pinion.id.PinionId;

/**
 * The outcome of enqueuing one job.
 *
 * @param created false when a job with the same dedupe key was already waiting; {@code id} is that job
 */
public record Enqueued(PinionId id, boolean created) {
}
