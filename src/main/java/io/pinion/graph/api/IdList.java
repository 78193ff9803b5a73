package io.pinion.graph.api;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

import io.pinion.failure.InvalidInput;
import io.pinion.id.IdParser;
import io.pinion.id.ObjectType;
import io.pinion.id.PinionId;

/**
 * The {@code ids} query parameter of batch checks: comma-separated ids of one type, at most 100, duplicates ignored.
 */
final class IdList {

    static final int MAX = 100;

    private IdList() {
    }

    static List<PinionId> parse(IdParser parser, String text, ObjectType type) {
        if (text == null || text.isBlank()) {
            throw new InvalidInput(
                    "invalid_ids", "ids is required: up to " + MAX + " comma-separated " + type.label() + " ids");
        }
        String[] parts = text.split(",", MAX + 2);
        if (parts.length > MAX) {
            throw new InvalidInput("too_many_ids", "at most " + MAX + " ids per call");
        }
        LinkedHashSet<PinionId> ids = new LinkedHashSet<>();
        for (String part : parts) {
            ids.add(parser.parse(part, type, type.label() + " id"));
        }
        return new ArrayList<>(ids);
    }
}
