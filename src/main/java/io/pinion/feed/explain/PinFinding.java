package io.pinion.feed.explain;

import java.util.List;
import java.util.Map;

import io.pinion.id.PinionId;
import io.pinion.pins.PinData;

/**
 * The pin as stored: whether it is still active, its author, board, interests and creation time.
 */
record PinFinding(PinData data) implements Finding {

    long author() {
        return PinionId.parse(data.ownerId()).value();
    }

    long board() {
        return PinionId.parse(data.boardId()).value();
    }

    List<String> interests() {
        return data.interests() == null ? List.of() : data.interests();
    }

    long created() {
        return data.createdAt().toEpochMilli();
    }

    boolean active() {
        return data.active();
    }

    @Override
    public String summary() {
        String pin = "pin by user " + data.ownerId() + " on board " + data.boardId() + ", created "
                + data.createdAt() + (interests().isEmpty() ? ", no interests" : ", interests " + interests());
        return active() ? pin : "deleted " + pin + "; every feed page drops it when it hydrates the page";
    }

    @Override
    public Map<String, Object> evidence() {
        return new Evidence()
                .put("exists", true)
                .put("active", active())
                .put("author", data.ownerId())
                .put("board", data.boardId())
                .put("interests", interests())
                .put("createdAt", data.createdAt().toString())
                .put("savedFrom", data.savedFrom())
                .map();
    }
}
