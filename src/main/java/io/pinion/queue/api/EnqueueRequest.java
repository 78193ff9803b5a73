package io.pinion.queue.api;

import java.util.List;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * One job, or a batch in {@code jobs} (up to 1,000).
 */
public record EnqueueRequest(
        @Schema(description = "Body as UTF-8 text") String body,

        @Schema(description = "Body as base64 bytes (instead of body)")
        String bodyBase64,

        @Schema(description = "1 (served first) - 3; default: the queue's defaultPriority")
        Integer priority,

        @Schema(description = "Earliest run time, ISO-8601 (e.g. 2026-11-21T10:00:00Z)")
        String runAfter,

        @Schema(description = "Earliest run time as a delay from now, ms (instead of runAfter)")
        Long delayMs,

        @Schema(
                description =
                        "While a job with this key is unfinished, enqueuing it again returns that job (at most 191"
                                + " chars)")
        String dedupeKey,

        @Schema(description = "A batch of jobs; when present the other fields must be absent")
        List<EnqueueRequest> jobs) {}
