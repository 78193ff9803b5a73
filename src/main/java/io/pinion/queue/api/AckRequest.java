package io.pinion.queue.api;

import java.util.List;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** Acks of up to 1,000 jobs of any queues. */
public record AckRequest(List<Item> acks) {

    public record Item(
            @Schema(description = "Job id") String id,

            @Schema(description = "The leaseToken handed out with the job (required)")
            String leaseToken,

            @Schema(description = "success or failure") String outcome,

            @Schema(description = "Appended to the job's status (at most 5,000 chars)")
            String status,

            @Schema(description = "A failure's delay before the next attempt, ms, instead of the queue's backoff")
            Long retryDelayMs) {}
}
