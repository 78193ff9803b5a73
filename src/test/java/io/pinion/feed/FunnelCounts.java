package io.pinion.feed;

import java.util.HashMap;
import java.util.Map;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * A snapshot of the delivery funnel's counters ({@link FeedFunnel#METRIC}), and differences between two snapshots:
 * a count is asked for by stage, and optionally source and reason (null: summed over them).
 */
final class FunnelCounts {

    private final Map<String, Double> counts = new HashMap<>();

    private FunnelCounts() {
    }

    static FunnelCounts of(MeterRegistry registry) {
        FunnelCounts snapshot = new FunnelCounts();
        for (Counter counter : registry.find(FeedFunnel.METRIC).counters()) {
            String key = counter.getId().getTag("stage") + "|" + counter.getId().getTag("source") + "|"
                    + counter.getId().getTag("reason");
            snapshot.counts.merge(key, counter.count(), Double::sum);
        }
        return snapshot;
    }

    /** This snapshot minus an earlier one. */
    FunnelCounts since(FunnelCounts earlier) {
        FunnelCounts delta = new FunnelCounts();
        counts.forEach((key, value) -> delta.counts.put(key, value - earlier.counts.getOrDefault(key, 0.0)));
        return delta;
    }

    long get(String stage) {
        return get(stage, null, null);
    }

    long get(String stage, String source, String reason) {
        double sum = 0;
        for (Map.Entry<String, Double> entry : counts.entrySet()) {
            String[] parts = entry.getKey().split("\\|");
            if (parts[0].equals(stage) && (source == null || parts[1].equals(source))
                    && (reason == null || parts[2].equals(reason))) {
                sum += entry.getValue();
            }
        }
        return Math.round(sum);
    }

    /** Every series that changed, by "stage|source|reason" (a delta's non-zero counts). */
    Map<String, Long> series() {
        Map<String, Long> changed = new java.util.TreeMap<>();
        counts.forEach((key, value) -> {
            if (Math.round(value) != 0) {
                changed.put(key, Math.round(value));
            }
        });
        return changed;
    }

    @Override
    public String toString() {
        return new java.util.TreeMap<>(counts).toString();
    }
}
