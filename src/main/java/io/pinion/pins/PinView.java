package io.pinion.pins;

import java.time.Instant;
import java.util.List;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * A pin as the API shows it.
 */
@Schema(name = "Pin")
public record PinView(String id, String boardId, String ownerId, String description, String link, String imageUrl,
        List<String> interests, @Schema(nullable = true) String savedFrom, Instant createdAt, Counts counts) {

    /** Exact counts. */
    @Schema(name = "PinCounts")
    public record Counts(long likes, long saves) {
    }
}
