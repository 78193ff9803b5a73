package io.pinion.queue.api;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** How many jobs to lease and how long to wait for the first. */
public record DequeueRequest(
        @Schema(description = "Most jobs to lease (1-1000, default 1)") Integer max,
        @Schema(description = "Wait up to this long for jobs when none is ready, ms (default 0)") Long waitMs) {
}
