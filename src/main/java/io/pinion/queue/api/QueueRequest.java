package io.pinion.queue.api;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * Settings of a queue to create, or the settings to change (absent fields keep their value).
 */
public record QueueRequest(
        @Schema(description = "Queue name: lower-case letters, digits, '.', '_' and '-', at most 64; only on create")
        String name,

        @Schema(description = "Partition tables (1-64, default 4); can only grow; a FIFO queue has 1")
        Integer partitions,

        @Schema(
                description = "Jobs handed out per second across the cluster; 0 pauses; null means unlimited",
                nullable = true)
        Double rateLimit,

        @Schema(description = "Attempts before a job is FAILED (1-100, default 5)")
        Integer maxAttempts,

        @Schema(description = "Backoff between attempts") RetryRequest retry,

        @Schema(description = "Lease of a dequeued job in ms (1,000 - 86,400,000; default 60,000)")
        Long leaseMs,

        @Schema(description = "Priority of jobs enqueued without one: 1 (first) - 3 (default 2)")
        Integer defaultPriority,

        @Schema(description = "Hand jobs out one at a time in enqueue order (only on create)")
        Boolean fifo,

        @Schema(description = "How long finished jobs are kept, ms (default 7 days)")
        Long retentionMs,

        @Schema(description = "Largest job body in bytes (default pinion.queue.max-body-bytes, 64 KiB)")
        Integer maxBodyBytes,

        @Schema(description = "Set true to make rateLimit null (unlimited) on update")
        Boolean unlimited) {

    /** Backoff: {@code fixed} waits delayMs each time; {@code exponential} doubles from delayMs up to maxDelayMs. */
    public record RetryRequest(String kind, Long delayMs, Long maxDelayMs) {
    }
}
