package io.pinion.queue.api;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** Extends a running job's lease. */
public record CheckpointRequest(
        @Schema(description = "The leaseToken handed out with the job (required)") String leaseToken,
        @Schema(description = "New lease length from now, ms (default: the queue's leaseMs)") Long extendMs,
        @Schema(description = "Appended to the job's status") String status) {
}
