package io.pinion.feed.funnel;

import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Locale;
import java.util.Optional;

import io.pinion.feed.FeedFunnel;
import io.pinion.feed.FeedSource;

/**
 * The per-entity funnel's time buckets and how a count is named in Redis: minute buckets in one hash per entity and
 * UTC day, kept until the end of the next day (so the last 24 hours are always there); hour buckets in one hash per
 * entity and UTC month, kept 32 days past the month's end (so the last 31 days are). A field is
 * {@code <bucket>.<stage>.<source>.<reason>} with the global funnel's tags ({@code all} where the stage has no
 * source).
 */
final class FunnelBuckets {

    static final long MINUTE_MS = 60_000;
    static final long HOUR_MS = 3_600_000;
    static final long DAY_MS = 86_400_000;
    /** How far back minute buckets can be read. */
    static final long MINUTES_KEPT_MS = DAY_MS;
    /** How far back hour buckets can be read. */
    static final long HOURS_KEPT_MS = 31 * DAY_MS;

    private static final String ALL = "all";

    private FunnelBuckets() {
    }

    /** A parsed field: the bucket's index in its hash, and the series. */
    record Field(int bucket, FeedFunnel.Stage stage, FeedSource source, FeedFunnel.Reason reason) {
    }

    static long epochDay(long millis) {
        return Math.floorDiv(millis, DAY_MS);
    }

    static int minuteOfDay(long millis) {
        return (int) (Math.floorMod(millis, DAY_MS) / MINUTE_MS);
    }

    static long epochMonth(long millis) {
        LocalDate day = LocalDate.ofEpochDay(epochDay(millis));
        return (day.getYear() - 1970L) * 12 + day.getMonthValue() - 1;
    }

    static long monthStart(long epochMonth) {
        LocalDate first = LocalDate.of((int) (1970 + Math.floorDiv(epochMonth, 12)), (int) Math.floorMod(epochMonth, 12)
                + 1, 1);
        return first.atStartOfDay().toInstant(ZoneOffset.UTC).toEpochMilli();
    }

    static int hourOfMonth(long millis) {
        return (int) ((millis - monthStart(epochMonth(millis))) / HOUR_MS);
    }

    /** When a day's minute hash expires (epoch seconds): the end of the next day. */
    static long minuteHashExpiry(long epochDay) {
        return (epochDay + 2) * DAY_MS / 1000;
    }

    /** When a month's hour hash expires (epoch seconds): 32 days after the month ends. */
    static long hourHashExpiry(long epochMonth) {
        return (monthStart(epochMonth + 1) + 32 * DAY_MS) / 1000;
    }

    static String field(int bucket, FeedFunnel.Stage stage, FeedSource source, FeedFunnel.Reason reason) {
        return bucket + "." + stage.tag() + "." + (source == null ? ALL : source.label()) + "." + reason.tag();
    }

    /** The field's parts; empty for a field this version does not know (a stage or reason added later). */
    static Optional<Field> parse(String field) {
        String[] parts = field.split("\\.", -1);
        if (parts.length != 4) {
            return Optional.empty();
        }
        try {
            FeedSource source = null;
            if (!ALL.equals(parts[2])) {
                source = FeedSource.valueOf(parts[2].toUpperCase(Locale.ROOT));
            }
            return Optional.of(new Field(Integer.parseInt(parts[0]),
                    FeedFunnel.Stage.valueOf(parts[1].toUpperCase(Locale.ROOT)), source,
                    FeedFunnel.Reason.valueOf(parts[3].toUpperCase(Locale.ROOT))));
        } catch (IllegalArgumentException unknown) {
            return Optional.empty();
        }
    }
}
