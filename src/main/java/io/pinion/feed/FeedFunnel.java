package io.pinion.feed;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * The delivery funnel: one counter family, {@value #METRIC}{@code {stage, source, reason}} (Prometheus:
 * {@code pinion_feed_funnel_total}), that counts
 * every pin and pool row at each stage from creation to display, and what left the path there and why. The stages
 * and how they add up are in docs/feed.md ("The delivery funnel"); {@code FunnelBalanceTest} checks the sums. Every
 * known series is registered at start (at 0), so a sum over a stage never misses one; counting is an array lookup.
 *
 * <p>A count that names its pin ({@link FunnelPin}) is also counted per pin, author and board ({@link FunnelTally},
 * then Redis through {@code feed.funnel}): the per-entity funnel holds the same numbers as this one, split by entity.
 */
@ApplicationScoped
public class FeedFunnel {

    public static final String METRIC = "pinion.feed.funnel";

    /** Where a count was taken, in the order a pin passes them. */
    public enum Stage {
        /** Pins entering the feed (created or saved to a board). */
        CREATED,
        /** Push-or-pull decisions: following by mode, and each interest of a pin (always pulled). */
        ROUTED,
        /** Receivers of pushed pins read from the graph (the author excluded). */
        PAGED,
        /** Pool rows written by the fan-out of pushed pins. */
        PUSHED,
        /** Receivers that got no row: inactive, or the pin's author is pulled (counted per pulled pin). */
        SKIPPED,
        /** Pool rows written for other reasons: follow backfills, related pins, regenerations. */
        POOLED,
        /** What content generators considered for a chunk: pool rows and pulled pins. */
        CANDIDATE,
        /** Candidates not shown: below the quality bar, duplicate, already shown, deleted at hydration. */
        DROPPED,
        /** Candidates kept for a later visit (pool rows stay; pulled pins are carried). */
        HELD_BACK,
        /** Candidates shown on a first page. */
        SHOWN,
        /** Chunk entries written to the materialized feed. */
        PERSISTED,
        /** Pulled pins held back and written into the pools. */
        CARRIED,
        /** Pool rows removed after being shown or dropped. */
        CONSUMED,
        /** Rows removed because their pin was deleted: from pools and from materialized feeds. */
        PURGED,
        /** Pool rows removed because a pool was above pinion.feed.pool-max. */
        TRIMMED,
        /** Rows removed by unfollows: from pools and from materialized feeds. */
        UNFOLLOWED;

        public String tag() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** Why, or how, a count was taken; {@code NONE} where a stage has no reason. */
    public enum Reason {
        NONE, PUSHED, PULLED, NOBODY, INACTIVE, PULLED_AUTHOR, BACKFILL, RELATED, REGENERATED, POOL, BELOW_BAR,
        DUPLICATE, ALREADY_SHOWN, DELETED, MATERIALIZED, OLDER_PAGE;

        public String tag() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private static final String ALL = "all";
    private static final int SOURCES = FeedSource.values().length + 1;
    private static final int REASONS = Reason.values().length;

    /** One series of the funnel: a stage, a source (null for all sources) and a reason. */
    private record Series(Stage stage, FeedSource source, Reason reason) {
    }

    /** Every series the feed counts. */
    private static final List<Series> SERIES = series();

    private static List<Series> series() {
        List<Series> all = new ArrayList<>();
        all.add(new Series(Stage.CREATED, null, Reason.NONE));
        for (Reason mode : List.of(Reason.PUSHED, Reason.PULLED, Reason.NOBODY)) {
            all.add(new Series(Stage.ROUTED, FeedSource.FOLLOWING, mode));
        }
        all.add(new Series(Stage.ROUTED, FeedSource.INTERESTS, Reason.PULLED));
        all.add(new Series(Stage.PAGED, FeedSource.FOLLOWING, Reason.NONE));
        all.add(new Series(Stage.PUSHED, FeedSource.FOLLOWING, Reason.NONE));
        all.add(new Series(Stage.SKIPPED, FeedSource.FOLLOWING, Reason.INACTIVE));
        all.add(new Series(Stage.SKIPPED, FeedSource.FOLLOWING, Reason.PULLED_AUTHOR));
        all.add(new Series(Stage.POOLED, FeedSource.FOLLOWING, Reason.BACKFILL));
        all.add(new Series(Stage.POOLED, FeedSource.INTERESTS, Reason.BACKFILL));
        all.add(new Series(Stage.POOLED, FeedSource.RELATED, Reason.RELATED));
        all.add(new Series(Stage.POOLED, FeedSource.FOLLOWING, Reason.REGENERATED));
        for (FeedSource source : FeedSource.values()) {
            all.add(new Series(Stage.CANDIDATE, source, Reason.POOL));
            all.add(new Series(Stage.CANDIDATE, source, Reason.PULLED));
            for (Reason why : List.of(Reason.BELOW_BAR, Reason.DUPLICATE, Reason.ALREADY_SHOWN, Reason.DELETED)) {
                all.add(new Series(Stage.DROPPED, source, why));
            }
            all.add(new Series(Stage.HELD_BACK, source, Reason.POOL));
            all.add(new Series(Stage.HELD_BACK, source, Reason.PULLED));
            all.add(new Series(Stage.SHOWN, source, Reason.NONE));
            all.add(new Series(Stage.PERSISTED, source, Reason.NONE));
            all.add(new Series(Stage.CARRIED, source, Reason.NONE));
            all.add(new Series(Stage.CONSUMED, source, Reason.NONE));
            all.add(new Series(Stage.CONSUMED, source, Reason.OLDER_PAGE));
        }
        all.add(new Series(Stage.PURGED, null, Reason.POOL));
        all.add(new Series(Stage.PURGED, null, Reason.MATERIALIZED));
        all.add(new Series(Stage.TRIMMED, null, Reason.POOL));
        all.add(new Series(Stage.UNFOLLOWED, null, Reason.POOL));
        all.add(new Series(Stage.UNFOLLOWED, null, Reason.MATERIALIZED));
        return List.copyOf(all);
    }

    /** Where a plan's kinds of candidate are counted (the source is the candidate's). */
    private static final Map<PlanCounts.Kind, Series> PLANNED = new EnumMap<>(Map.of(
            PlanCounts.Kind.POOLED, new Series(Stage.CANDIDATE, null, Reason.POOL),
            PlanCounts.Kind.PULLED, new Series(Stage.CANDIDATE, null, Reason.PULLED),
            PlanCounts.Kind.BELOW_BAR, new Series(Stage.DROPPED, null, Reason.BELOW_BAR),
            PlanCounts.Kind.DUPLICATE, new Series(Stage.DROPPED, null, Reason.DUPLICATE),
            PlanCounts.Kind.ALREADY_SHOWN, new Series(Stage.DROPPED, null, Reason.ALREADY_SHOWN),
            PlanCounts.Kind.HELD_BACK_POOLED, new Series(Stage.HELD_BACK, null, Reason.POOL),
            PlanCounts.Kind.HELD_BACK_PULLED, new Series(Stage.HELD_BACK, null, Reason.PULLED)));

    private final MeterRegistry registry;
    private final FunnelTally tally;
    private final Counter[] counters = new Counter[Stage.values().length * SOURCES * REASONS];

    FeedFunnel(MeterRegistry registry, FunnelTally tally) {
        this.registry = registry;
        this.tally = tally;
        for (Series series : SERIES) {
            counter(series.stage(), series.source(), series.reason());
        }
    }

    /**
     * Adds {@code n} to a series and to the pin's own funnel; {@code source} null means the stage is counted for all
     * sources together.
     */
    public void count(Stage stage, FeedSource source, Reason reason, FunnelPin pin, long n) {
        if (n > 0) {
            counter(stage, source, reason).increment(n);
            tally.add(pin, stage, source, reason, n, System.currentTimeMillis());
        }
    }

    /** Adds one per entry, to each entry's source. */
    public void perSource(Stage stage, List<FeedEntry> entries) {
        long now = System.currentTimeMillis();
        for (FeedEntry entry : entries) {
            counter(stage, entry.source(), Reason.NONE).increment();
            tally.add(FunnelPin.of(entry), stage, entry.source(), Reason.NONE, 1, now);
        }
    }

    /** Adds one per pool row, to each row's source. */
    public void perRow(Stage stage, List<PoolEntry> rows) {
        perRow(stage, Reason.NONE, rows);
    }

    /** Adds one per pool row, to each row's source, with a reason. */
    public void perRow(Stage stage, Reason reason, List<PoolEntry> rows) {
        long now = System.currentTimeMillis();
        for (PoolEntry row : rows) {
            counter(stage, row.key().source(), reason).increment();
            tally.add(FunnelPin.of(row), stage, row.key().source(), reason, 1, now);
        }
    }

    /** Adds one per pool row to the stage's all-sources series, and to each row's pin. */
    public void rows(Stage stage, Reason reason, List<PoolEntry> rows) {
        if (rows.isEmpty()) {
            return;
        }
        counter(stage, null, reason).increment(rows.size());
        long now = System.currentTimeMillis();
        for (PoolEntry row : rows) {
            tally.add(FunnelPin.of(row), stage, null, reason, 1, now);
        }
    }

    /** What one chunk's plan did with its candidates: every candidate in its stage, and in its pin's funnel. */
    public void planned(PlanCounts counts) {
        long now = System.currentTimeMillis();
        counts.forEach((source, entry, kind) -> {
            Series series = PLANNED.get(kind);
            if (series != null) { // chosen ones are counted as shown or dropped when the page is hydrated
                counter(series.stage(), source, series.reason()).increment();
                tally.add(FunnelPin.of(entry), series.stage(), source, series.reason(), 1, now);
            }
        });
    }

    /** A series' count on this instance since it started. */
    public record Total(Stage stage, FeedSource source, Reason reason, long count) {
    }

    /** Every series the feed counts, with what this instance counted since it started. */
    public List<Total> totals() {
        List<Total> totals = new ArrayList<>(SERIES.size());
        for (Series series : SERIES) {
            totals.add(new Total(series.stage(), series.source(), series.reason(),
                    (long) counter(series.stage(), series.source(), series.reason()).count()));
        }
        return totals;
    }

    private Counter counter(Stage stage, FeedSource source, Reason reason) {
        int index = (stage.ordinal() * SOURCES + (source == null ? 0 : source.ordinal() + 1)) * REASONS
                + reason.ordinal();
        Counter counter = counters[index];
        if (counter == null) {
            counter = Counter.builder(METRIC)
                    .description("The delivery funnel: pins and pool rows per stage, source and reason")
                    .tag("stage", stage.tag())
                    .tag("source", source == null ? ALL : source.label())
                    .tag("reason", reason.tag())
                    .register(registry);
            counters[index] = counter;
        }
        return counter;
    }
}
