package io.pinion.feed.explain;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/** The evidence of a stage, in the order it was added; null values are kept, as a field that was read empty. */
final class Evidence {

    private final Map<String, Object> fields = new LinkedHashMap<>();

    Evidence put(String name, Object value) {
        fields.put(name, value);
        return this;
    }

    Map<String, Object> map() {
        return fields;
    }

    /** An epoch-ms time in ISO-8601; null stays null. */
    static String time(Long epochMs) {
        return epochMs == null ? null : Instant.ofEpochMilli(epochMs).toString();
    }

    /** A worth or score to two decimals, as dashboards show it. */
    static double rounded(double value) {
        return Math.round(value * 100) / 100.0;
    }
}
