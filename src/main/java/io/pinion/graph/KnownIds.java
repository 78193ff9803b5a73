package io.pinion.graph;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A fixed-size, lock-free set of ids known to exist (users are never removed): direct-mapped, 8 bytes per slot, a
 * newer id replaces whatever shared its slot. Id 0 is never a valid id, so it marks an empty slot.
 */
final class KnownIds {

    private final AtomicLongArray slots;
    private final int mask;

    KnownIds(int size) {
        int capacity = Integer.highestOneBit(Math.max(16, size - 1)) << 1;
        slots = new AtomicLongArray(capacity);
        mask = capacity - 1;
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
