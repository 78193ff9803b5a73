package io.pinion.web;

/**
 * The {@code limit} query parameter of list endpoints: default 25, at most 100 (larger values are capped),
 * below 1 is a 400.
 */
public final class Limits {

    public static final int DEFAULT = 25;
    public static final int MAX = 100;

    private Limits() {
    }

    public static int of(String text) {
        if (text == null || text.isEmpty()) {
            return DEFAULT;
        }
        long requested;
        try {
            requested = Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            throw new BadRequestException("invalid_limit", "limit must be a number between 1 and " + MAX);
        }
        if (requested < 1) {
            throw new BadRequestException("invalid_limit", "limit must be at least 1 (at most " + MAX + " are returned)");
        }
        return (int) Math.min(requested, MAX);
    }
}
