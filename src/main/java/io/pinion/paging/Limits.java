package io.pinion.paging;

import io.pinion.failure.InvalidInput;

/**
 * The one rule for the {@code limit} query parameter of every list: absent or blank means the list's default; it
 * must be a whole number of at least 1, or the answer is a 400 {@code invalid_limit}; above the list's maximum it
 * is either capped (a page is never larger than the maximum) or refused, as each list declares. Public lists cap;
 * lists whose caller sizes its work by the answer (the home feed's cursor, a fan-out page, a bulk repair) refuse,
 * so nobody silently gets less than asked.
 *
 * @param defaultSize the page size when none is asked
 * @param max the largest page
 * @param capped whether a larger value is capped to {@code max} (else refused)
 */
public record Limits(int defaultSize, int max, boolean capped) {

    /** Public lists: boards, pins, likes, followers, jobs by state; 25 by default, larger values capped at 100. */
    public static final Limits LIST = new Limits(25, 100, true);
    /** The home feed: 25 by default, 1 to 100. */
    public static final Limits FEED = new Limits(25, 100, false);
    /** A board's receivers, read by fan-out workers: 1,000 by default, 1 to 1,000. */
    public static final Limits RECEIVERS = new Limits(1_000, 1_000, false);
    /** Bulk repairs such as retrying failed jobs: 1,000 by default, 1 to 100,000. */
    public static final Limits REPAIR = new Limits(1_000, 100_000, false);

    /** The page size the text asks for, under this list's rule. */
    public int of(String text) {
        if (text == null || text.isBlank()) {
            return defaultSize;
        }
        long requested;
        try {
            requested = Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            throw invalid();
        }
        if (requested < 1 || (requested > max && !capped)) {
            throw invalid();
        }
        return (int) Math.min(requested, max);
    }

    private InvalidInput invalid() {
        return new InvalidInput("invalid_limit", capped
                ? "limit must be a whole number of at least 1 (at most " + max + " are returned)"
                : "limit must be a whole number from 1 to " + max);
    }
}
