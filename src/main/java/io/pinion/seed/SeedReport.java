package io.pinion.seed;

import java.util.Map;

/**
 * What a seed did: the counts written, seconds per phase, the data set's fingerprint (equal for equal plans) and
 * where the manifest went.
 */
public record SeedReport(Map<String, Object> counts, Map<String, Double> seconds, double totalSeconds, long fingerprint,
        int backfills, String manifest, int maxFollowers, int medianFollowers) {
}
