package io.pinion.store;

import java.time.Instant;
import java.util.Map;

import io.pinion.id.PinionId;

/**
 * A row of an object table with the object's counters.
 *
 * @param id      the object's id
 * @param data    the JSON blob holding every field
 * @param updated the row's timestamp
 * @param counts  counter name → value (absent counters are zero)
 */
public record StoredObject(PinionId id, String data, Instant updated, Map<String, Long> counts) {

    public StoredObject withCounts(Map<String, Long> other) {
        return new StoredObject(id, data, updated, other);
    }

    public long count(String name) {
        return counts.getOrDefault(name, 0L);
    }
}
