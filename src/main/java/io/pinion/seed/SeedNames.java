package io.pinion.seed;

import java.util.List;

/** Names and texts of seeded objects, derived from their indexes. */
final class SeedNames {

    private SeedNames() {
    }

    static String username(SeedPlan plan, int user) {
        return plan.prefix() + "_" + user;
    }

    static String displayName(int user) {
        return "Seeded user " + user;
    }

    static String boardName(int nth) {
        return "Board " + (nth + 1);
    }

    /** The pin's interests: one or two names. */
    static List<String> interests(int encoded) {
        String first = SeedGenerator.INTERESTS.get(encoded / 100);
        String second = SeedGenerator.INTERESTS.get(encoded % 100);
        return first.equals(second) ? List.of(first) : List.of(first, second);
    }

    static String pinDescription(int pin, int interests) {
        return "Pin " + pin + " about " + String.join(" and ", interests(interests));
    }
}
