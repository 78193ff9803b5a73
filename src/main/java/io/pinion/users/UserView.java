package io.pinion.users;

import java.time.Instant;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * A user as the API shows it.
 */
@Schema(name = "User")
public record UserView(
        @Schema(description = "User id (64-bit, as a string)", examples = "13194139533313") String id,
        String username,
        String displayName,
        Instant createdAt,
        Counts counts) {

    /** Exact counts. */
    public record Counts(long boards, long pins, long likes) {
    }
}
