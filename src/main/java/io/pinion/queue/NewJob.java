package io.pinion.queue;

/**
 * A job to enqueue.
 *
 * @param body      payload bytes
 * @param priority  1 (served first) … 3
 * @param runAfter  earliest run time (epoch ms)
 * @param dedupeKey optional; while a job with this key is not finished, enqueuing the key again returns that job
 */
public record NewJob(byte[] body, int priority, long runAfter, String dedupeKey) {
}
