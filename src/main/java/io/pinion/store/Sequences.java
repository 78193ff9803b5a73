package io.pinion.store;

/**
 * Sequence numbers of mapping entries. A new entry gets the current time in milliseconds shifted left by
 * {@link #GAP_BITS}, so newer entries sort first and about a million re-orderings fit between two entries
 * created a millisecond apart before a list has to be renumbered.
 */
public final class Sequences {

    public static final int GAP_BITS = 20;
    /** Spacing used when a list is renumbered, and when an entry moves past either end. */
    public static final long GAP = 1L << GAP_BITS;

    private Sequences() {
    }

    public static long now() {
        return System.currentTimeMillis() << GAP_BITS;
    }

    /** The sequence halfway between two, or null when they are adjacent (the list needs renumbering). */
    public static Long between(long low, long high) {
        if (high - low < 2) {
            return null;
        }
        return low + (high - low) / 2;
    }
}
