package io.pinion.store;

import java.time.Instant;
import java.util.Map;
import java.util.function.Function;

import io.pinion.id.PinionId;

/**
 * A row of an object table with the object's counters, as read from MySQL or held by the {@link ObjectCache}. It
 * is immutable but for one memo: the last few decodings of its JSON blob ({@link #decoded}), so a cached object is
 * parsed once, not on every read.
 */
public final class StoredObject {

    private final PinionId id;
    private final String data;
    private final Instant updated;
    private final Map<String, Long> counts;
    private volatile Decoded<?>[] decoded = NONE;

    /**
     * @param id      the object's id
     * @param data    the JSON blob holding every field
     * @param updated the row's timestamp
     * @param counts  counter name → value (absent counters are zero)
     */
    public StoredObject(PinionId id, String data, Instant updated, Map<String, Long> counts) {
        this.id = id;
        this.data = data;
        this.updated = updated;
        this.counts = counts;
    }

    private static final Decoded<?>[] NONE = new Decoded<?>[0];
    /** Decodings kept per object (e.g. a pin's data and its API view). */
    private static final int KEPT = 3;

    private record Decoded<T>(Class<T> type, T value) {
    }

    public PinionId id() {
        return id;
    }

    public String data() {
        return data;
    }

    public Instant updated() {
        return updated;
    }

    public Map<String, Long> counts() {
        return counts;
    }

    public StoredObject withCounts(Map<String, Long> other) {
        return new StoredObject(id, data, updated, other);
    }

    public long count(String name) {
        return counts.getOrDefault(name, 0L);
    }

    /**
     * The blob decoded as {@code type} by {@code decoder}: decoded once and kept (the last {@value #KEPT} types). A
     * decoding must depend only on this object (its blob and counts), and the value is shared by every reader of the
     * object, so it must be immutable.
     */
    @SuppressWarnings("unchecked")
    public <T> T decoded(Class<T> type, Function<String, T> decoder) {
        Decoded<?>[] kept = decoded;
        for (Decoded<?> one : kept) {
            if (one.type() == type) {
                return (T) one.value();
            }
        }
        T value = decoder.apply(data);
        Decoded<?>[] more = new Decoded<?>[Math.min(KEPT, kept.length + 1)];
        more[0] = new Decoded<>(type, value);
        System.arraycopy(kept, 0, more, 1, more.length - 1);
        decoded = more;
        return value;
    }

    @Override
    public String toString() {
        return "StoredObject[id=" + id + ", counts=" + counts + "]";
    }
}
