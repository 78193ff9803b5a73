package io.pinion.feed.funnel;

import java.time.Instant;
import java.util.List;

/**
 * A pin's, author's or board's funnel over a time range: one line per stage, source and reason that counted
 * anything, with its total and its non-empty buckets, and the same series of this instance's global funnel since it
 * started (for the shares beside it).
 *
 * @param entity {@code pin}, {@code author} or {@code board}
 * @param step   the bucket width, ISO-8601 ({@code PT1M}, {@code PT1H}, ...)
 */
public record FunnelView(String entity, String id, Instant from, Instant to, String step, List<Line> lines,
        List<Total> global) {

    /** One series of the entity's funnel: its total over the range and its buckets that counted (oldest first). */
    public record Line(String stage, String source, String reason, long total, List<Point> points) {
    }

    /** A bucket, named by its start. */
    public record Point(Instant at, long count) {
    }

    /** A series of the global funnel: what this instance counted since it started. */
    public record Total(String stage, String source, String reason, long count) {
    }
}
