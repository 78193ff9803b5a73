package io.pinion.boards;

import java.time.Instant;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * A board as the API shows it.
 */
@Schema(name = "Board")
public record BoardView(String id, String ownerId, String name, String description, Instant createdAt, Counts counts) {

    /** Exact counts. */
    public record Counts(long pins) {
    }
}
