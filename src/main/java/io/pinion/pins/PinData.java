package io.pinion.pins;

import java.time.Instant;
import java.util.List;

/**
 * What the {@code pins} row's JSON blob holds. {@code savedFrom} is the pin this one was saved from, if any.
 */
public record PinData(String ownerId, String boardId, String description, String link, String imageUrl,
        List<String> interests, String savedFrom, Instant createdAt, boolean active) {

    PinData deleted() {
        return new PinData(ownerId, boardId, description, link, imageUrl, interests, savedFrom, createdAt, false);
    }

    PinData savedAs(String newOwner, String newBoard, String original) {
        return new PinData(newOwner, newBoard, description, link, imageUrl, interests, original, Instant.now(), true);
    }
}
