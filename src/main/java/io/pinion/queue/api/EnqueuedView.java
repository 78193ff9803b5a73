package io.pinion.queue.api;

/** An enqueued job's id; {@code created} is false when the dedupe key matched a job that was already waiting. */
public record EnqueuedView(String id, boolean created) {
}
