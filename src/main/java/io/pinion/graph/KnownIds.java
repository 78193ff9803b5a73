package io.pinion.graph;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A fixed-size, lock-free set of ids known to exist (users are never removed): direct-mapped, 8 bytes per slot, a
 * newer id replaces whatever shared its slot. Id 0 is never a valid id, so it marks an empty slot. Emptied at once
 * when the stores may have changed under it ({@link #clear}).
 */
final class KnownIds {

    private final int capacity;
    private final int mask;
    private volatile AtomicLongArray slots;

    KnownIds(int size) {
        capacity = Integer.highestOneBit(Math.max(16, size - 1)) << 1;
        slots = new AtomicLongArray(capacity);
        mask = capacity - 1;
    }

    /** Forgets every id. */
    void clear() {
        slots = new AtomicLongArray(capacity);
    }

    boolean contains(long id) {
        return slots.get(slot(id)) == id;
    }

    void add(long id) {
        slots.set(slot(id), id);
    }

    private int slot(long id) {
        return (int) VirtualShards.mix(id) & mask;
    }
}
