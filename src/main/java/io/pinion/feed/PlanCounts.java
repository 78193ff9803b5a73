package io.pinion.feed;

/**
 * What one chunk's plan did with its candidates, per source: how many it considered (pool rows, pulled pins), dropped
 * (below the quality bar, duplicates, already shown), held back (pool rows that stay, pulled pins that are carried)
 * and chose. Every candidate is counted once in one of the last five kinds.
 */
public final class PlanCounts {

    /** A count kept per source. */
    public enum Kind {
        POOLED, PULLED, BELOW_BAR, DUPLICATE, ALREADY_SHOWN, HELD_BACK_POOLED, HELD_BACK_PULLED, CHOSEN
    }

    private final int[][] counts = new int[FeedSource.values().length][Kind.values().length];

    public void add(FeedSource source, Kind kind) {
        counts[source.ordinal()][kind.ordinal()]++;
    }

    public int get(FeedSource source, Kind kind) {
        return counts[source.ordinal()][kind.ordinal()];
    }

    /** A kind over all sources. */
    public int total(Kind kind) {
        int total = 0;
        for (int[] bySource : counts) {
            total += bySource[kind.ordinal()];
        }
        return total;
    }
}
