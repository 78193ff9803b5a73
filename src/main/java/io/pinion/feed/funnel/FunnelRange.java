package io.pinion.feed.funnel;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;

import io.pinion.failure.InvalidInput;

/**
 * A funnel query's range as sent: {@code from} and {@code to} as ISO-8601 instants, {@code step} as an ISO-8601
 * duration, each with its default when absent; anything else a 400.
 */
public record FunnelRange(Instant from, Instant to, Duration step) {

    /** The range asked for; {@code span} and {@code step} give the defaults (the last {@code span}, to now). */
    public static FunnelRange parse(String from, String to, String step, Duration span, Duration defaultStep) {
        Instant end = to == null || to.isBlank() ? Instant.now() : instant(to, "to");
        Instant start = from == null || from.isBlank() ? end.minus(span) : instant(from, "from");
        Duration width = defaultStep;
        if (step != null && !step.isBlank()) {
            try {
                width = Duration.parse(step);
            } catch (DateTimeParseException e) {
                throw new InvalidInput("invalid_step", "step: an ISO-8601 duration such as PT1M, PT1H or P1D");
            }
        }
        return new FunnelRange(start, end, width);
    }

    private static Instant instant(String text, String field) {
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            throw new InvalidInput("invalid_time", field + ": an ISO-8601 instant such as 2026-01-31T12:00:00Z");
        }
    }
}
