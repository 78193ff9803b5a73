package io.pinion.boards;

import java.time.Instant;

/**
 * What the {@code boards} row's JSON blob holds.
 */
public record BoardData(String ownerId, String name, String description, Instant createdAt, boolean active) {

    BoardData withText(String newName, String newDescription) {
        return new BoardData(ownerId, newName, newDescription, createdAt, active);
    }

    BoardData deleted() {
        return new BoardData(ownerId, name, description, createdAt, false);
    }
}
