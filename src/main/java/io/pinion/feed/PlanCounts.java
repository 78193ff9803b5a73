package io.pinion.feed;

import java.util.ArrayList;
import java.util.List;

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

    /** What was done with one candidate. */
    public interface Visitor {
        void visit(FeedSource source, PoolEntry entry, Kind kind);
    }

    private final int[][] counts = new int[FeedSource.values().length][Kind.values().length];
    private final List<FeedSource> sources = new ArrayList<>();
    private final List<PoolEntry> entries = new ArrayList<>();
    private final List<Kind> kinds = new ArrayList<>();

    /** Counts a candidate of {@code source} as {@code kind}, and keeps which one it was (for the pin's funnel). */
    public void add(FeedSource source, Kind kind, PoolEntry entry) {
        counts[source.ordinal()][kind.ordinal()]++;
        sources.add(source);
        entries.add(entry);
        kinds.add(kind);
    }

    /** Every count taken, in order, with its candidate. */
    public void forEach(Visitor visitor) {
        for (int i = 0; i < entries.size(); i++) {
            visitor.visit(sources.get(i), entries.get(i), kinds.get(i));
        }
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
