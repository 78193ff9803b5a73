package io.pinion.graph;

import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A fixed-size, lock-free cache of immutable facts keyed by id (a user exists; a board's owner): direct-mapped, a
 * newer entry replaces whatever shared its slot. The facts never change while the stores keep their data; when
 * they may not have (a restore, a topology change), the cache is emptied at once ({@link #clear}).
 */
final class IdCache {

    private record Entry(long key, long value) {
    }

    private final int capacity;
    private final int mask;
    private volatile AtomicReferenceArray<Entry> slots;

    IdCache(int size) {
        capacity = Integer.highestOneBit(Math.max(16, size - 1)) << 1;
        slots = new AtomicReferenceArray<>(capacity);
        mask = capacity - 1;
    }

    /** Forgets every entry. */
    void clear() {
        slots = new AtomicReferenceArray<>(capacity);
    }

    /** The cached value, or null. */
    Long get(long key) {
        Entry entry = slots.get(slot(key));
        return entry != null && entry.key() == key ? entry.value() : null;
    }

    void put(long key, long value) {
        slots.set(slot(key), new Entry(key, value));
    }

    private int slot(long key) {
        return (int) VirtualShards.mix(key) & mask;
    }
}
