package io.pinion.graph.api;

import java.time.Instant;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * Whether user A follows user B: explicitly (all of B's boards, present and future), or only implicitly (through
 * single boards).
 */
public record UserFollowCheck(
        boolean following,
        boolean implicit,
        @Schema(nullable = true, description = "when the explicit follow began") Instant since) {
}
