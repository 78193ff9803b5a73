package io.pinion.graph;

import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A fixed-size, lock-free cache of immutable facts keyed by id (a user exists; a board's owner): direct-mapped, a
 * newer entry replaces whatever shared its slot. Never stale, because the facts never change.
 */
final class IdCache {

    private record Entry(long key, long value) {
    }

    private final AtomicReferenceArray<Entry> slots;
    private final int mask;

    IdCache(int size) {
        int capacity = Integer.highestOneBit(Math.max(16, size - 1)) << 1;
        slots = new AtomicReferenceArray<>(capacity);
        mask = capacity - 1;
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
