package io.pinion.boards;

import java.time.Instant;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * A board as the API shows it.
 */
@Schema(name = "Board")
public record BoardView(String id, String ownerId, String name, String description, Instant createdAt, Counts counts) {

    /** The same board with its follower count filled in. */
    public BoardView withFollowers(long followers) {
        return new BoardView(id, ownerId, name, description, createdAt, new Counts(counts.pins(), followers));
    }

    /**
     * Exact counts; {@code followers} (everyone who receives the board's pins) is null while the follower graph's
     * Redis instance is unreachable.
     */
    @Schema(name = "BoardCounts")
    public record Counts(long pins, @Schema(nullable = true) Long followers) {

        public Counts(long pins) {
            this(pins, null);
        }
    }
}
