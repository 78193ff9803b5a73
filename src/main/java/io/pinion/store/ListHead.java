package io.pinion.store;

import java.util.ArrayList;
import java.util.List;

import io.pinion.paging.Position;

/**
 * The newest entries of one mapping list, newest first, as the object cache keeps them: positions in two arrays.
 *
 * @param sequences the entries' sequences
 * @param toIds     the entries' target ids
 * @param complete  whether these are all of the list's entries
 */
public record ListHead(long[] sequences, long[] toIds, boolean complete) {

    /** Entries kept per list at most. */
    public static final int MAX = 32;

    /** Bytes a head costs besides its arrays: the entry, the key and the record. */
    static final int OVERHEAD = 160;

    public int size() {
        return sequences.length;
    }

    /**
     * Up to {@code limit} entries below {@code before} (exclusive; null: from the top), or null when this head cannot
     * tell: the list may hold more of them past what is kept.
     */
    public List<Position> below(Position before, int limit) {
        int from = 0;
        if (before != null) {
            while (from < sequences.length && !isBelow(sequences[from], toIds[from], before)) {
                from++;
            }
        }
        int available = sequences.length - from;
        if (available < limit && !complete) {
            return null;
        }
        int count = Math.min(limit, available);
        List<Position> found = new ArrayList<>(count);
        for (int i = from; i < from + count; i++) {
            found.add(new Position(sequences[i], toIds[i]));
        }
        return found;
    }

    /**
     * Every entry kept below {@code before} (exclusive), at least {@code atLeast} of them unless the head holds the
     * whole list; null when it cannot tell (fewer kept and the list goes on past what is kept).
     */
    public List<Position> belowAtLeast(Position before, int atLeast) {
        int from = 0;
        while (from < sequences.length && !isBelow(sequences[from], toIds[from], before)) {
            from++;
        }
        int available = sequences.length - from;
        if (available < atLeast && !complete) {
            return null;
        }
        List<Position> found = new ArrayList<>(available);
        for (int i = from; i < sequences.length; i++) {
            found.add(new Position(sequences[i], toIds[i]));
        }
        return found;
    }

    int weight() {
        return OVERHEAD + 16 * sequences.length;
    }

    private static boolean isBelow(long sequence, long toId, Position before) {
        return sequence < before.sequence() || (sequence == before.sequence() && toId < before.toId());
    }
}
