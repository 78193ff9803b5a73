package io.pinion.graph.api;

import java.util.regex.Pattern;

import io.pinion.failure.InvalidInput;
import io.pinion.graph.InterestNames;

/**
 * Interest names as the graph keys them: normalized the same way as a pin's interests (trimmed, lower case, inner
 * whitespace collapsed), 1-40 letters, digits, spaces, _ or -.
 */
final class Interests {

    private static final Pattern VALID = Pattern.compile("[\\p{Ll}\\p{Lo}0-9][\\p{Ll}\\p{Lo}0-9 _-]{0,39}");

    private Interests() {
    }

    static String normalize(String name) {
        String normalized = name == null ? "" : InterestNames.normalize(name);
        if (!VALID.matcher(normalized).matches()) {
            throw new InvalidInput("invalid_interest",
                    "an interest is 1-40 letters, digits, spaces, _ or -, starting with a letter or digit");
        }
        return normalized;
    }
}
