package io.pinion.id;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.failure.InvalidInput;
import io.pinion.failure.NotFound;
import io.pinion.topology.ActiveTopology;

/**
 * Turns an id from a path, query or body into a {@link PinionId} of the type an endpoint expects: garbage,
 * negative values, reserved bits and the wrong type are 400s; a shard outside the topology is a 404 (no such
 * object can exist).
 */
@ApplicationScoped
public class IdParser {

    private final ActiveTopology topology;

    IdParser(ActiveTopology topology) {
        this.topology = topology;
    }

    public PinionId parse(String text, ObjectType expected, String field) {
        if (text == null || text.isBlank()) {
            throw new InvalidInput("invalid_id", field + " is required");
        }
        PinionId id;
        try {
            id = PinionId.parse(text.trim());
        } catch (IllegalArgumentException e) {
            throw new InvalidInput(
                    "invalid_id", field + " '" + abbreviate(text) + "' is not a valid id: " + e.getMessage());
        }
        if (id.type() != expected) {
            throw new InvalidInput("wrong_id_type",
                    field + " '" + text + "' is a " + id.type().label() + " id, not a " + expected.label() + " id");
        }
        if (!topology.get().mysql().exists(id.shard())) {
            throw new NotFound(expected.label() + "_not_found",
                    "no " + expected.label() + " " + text + " (shard " + id.shard() + " is not in the topology)");
        }
        return id;
    }

    private static String abbreviate(String text) {
        return text.length() > 40 ? text.substring(0, 40) + "…" : text;
    }
}
