package io.pinion.feed.explain;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.pinion.feed.DeliveryRules;
import io.pinion.feed.FeedSource;
import io.pinion.feed.PoolEntry;
import io.pinion.feed.store.PoolStore;

/**
 * The pin's rows in the user's pools (from the pools' index row), each with its worth now against the quality bar
 * and its rank in its pool; or, when it has none, what it would be worth to the user if it were scored now.
 *
 * @param rows      one per source the pin is pooled under
 * @param affinity  the user's affinity for the author, read only when the pin has no row
 * @param prospects per source it could come through (following, and interests if it has any), when it has no row
 * @param bar       {@code pinion.feed.quality-threshold}
 * @param bound     how far ranks are counted
 */
record PoolFinding(List<Pooled> rows, long affinity, List<Prospect> prospects, double bar, int bound)
        implements Finding {

    /** A pool row: its entry, its worth now and where it stands in its pool. */
    record Pooled(PoolEntry entry, double worth, PoolStore.Standing standing) {
    }

    /** What the pin would score for the user through a source, and be worth now. */
    record Prospect(FeedSource source, double score, double worth) {
    }

    /** The row worth most now. */
    Optional<Pooled> best() {
        return rows.stream().max(Comparator.comparingDouble(Pooled::worth));
    }

    /** What it would be worth now through the source, if it has no row (null otherwise). */
    Double prospect(FeedSource source) {
        return prospects.stream().filter(p -> p.source() == source).map(Prospect::worth).findFirst().orElse(null);
    }

    @Override
    public String summary() {
        if (rows.isEmpty()) {
            List<String> worths = prospects.stream()
                    .map(p -> Evidence.rounded(p.worth()) + " through " + p.source().label()).toList();
            return "no pool row; scored for this user now (affinity " + affinity + ") it would be worth "
                    + String.join(" and ", worths) + " (quality bar " + bar + ")";
        }
        List<String> parts = new ArrayList<>();
        for (Pooled row : rows) {
            PoolStore.Standing standing = row.standing();
            String rank = standing.capped() ? "at least " + standing.above() : Integer.toString(standing.above());
            parts.add("in the " + row.entry().key().source().label() + " pool, worth " + Evidence.rounded(row.worth())
                    + " now (quality bar " + bar + "), " + rank + " rows ranked above it"
                    + (standing.present() || standing.capped() ? "" : " (indexed, but the pool row is gone)"));
        }
        return String.join("; ", parts);
    }

    @Override
    public Map<String, Object> evidence() {
        List<Map<String, Object>> pooled = rows.stream().map(row -> new Evidence()
                .put("source", row.entry().key().source().label())
                .put("interest", row.entry().interest())
                .put("score", row.entry().key().score())
                .put("worthNow", Evidence.rounded(row.worth()))
                .put("aboveBar", DeliveryRules.worthShowing(row.worth(), bar))
                .put("rankedAbove", row.standing().above())
                .put("rankCapped", row.standing().capped())
                .put("rowPresent", row.standing().present())
                .map()).toList();
        Evidence evidence =
                new Evidence().put("qualityThreshold", bar).put("rows", pooled).put("rankCountedUpTo", bound);
        if (rows.isEmpty()) {
            Map<String, Object> scored = new LinkedHashMap<>();
            scored.put("affinity", affinity);
            prospects.forEach(p -> scored.put(
                    p.source().label(),
                    new Evidence()
                            .put("score", p.score())
                            .put("worthNow", Evidence.rounded(p.worth()))
                            .put("aboveBar", DeliveryRules.worthShowing(p.worth(), bar))
                            .map()));
            evidence.put("ifScoredNow", scored);
        }
        return evidence.map();
    }
}
