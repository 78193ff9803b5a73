package io.pinion.graph;

import java.util.List;
import java.util.Locale;

/**
 * Interest names as they are stored and keyed: trimmed, lower case, inner whitespace collapsed, duplicates removed.
 * A pin's interests and the interests users follow are normalized the same way, so they meet.
 */
public final class InterestNames {

    private InterestNames() {
    }

    public static String normalize(String name) {
        return name.strip().toLowerCase(Locale.ROOT).replaceAll("\\s+", " ");
    }

    public static List<String> normalize(List<String> names) {
        return names == null ? List.of() : names.stream().map(InterestNames::normalize).distinct().toList();
    }
}
