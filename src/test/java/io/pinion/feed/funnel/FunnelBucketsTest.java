package io.pinion.feed.funnel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;

import org.junit.jupiter.api.Test;

import io.pinion.feed.FeedFunnel;
import io.pinion.feed.FeedSource;

class FunnelBucketsTest {

    private static long at(String instant) {
        return Instant.parse(instant).toEpochMilli();
    }

    @Test
    void minutesRollOverAtMidnightAndHoursAtTheMonthsEnd() {
        long last = at("2026-01-31T23:59:30Z");
        long next = at("2026-02-01T00:00:10Z");
        assertEquals(1_439, FunnelBuckets.minuteOfDay(last));
        assertEquals(0, FunnelBuckets.minuteOfDay(next));
        assertEquals(FunnelBuckets.epochDay(last) + 1, FunnelBuckets.epochDay(next));
        assertEquals(30 * 24 + 23, FunnelBuckets.hourOfMonth(last));
        assertEquals(0, FunnelBuckets.hourOfMonth(next));
        assertEquals(FunnelBuckets.epochMonth(last) + 1, FunnelBuckets.epochMonth(next));
        assertEquals((2026 - 1970) * 12 + 1, FunnelBuckets.epochMonth(next));
        assertEquals(at("2026-02-01T00:00:00Z"), FunnelBuckets.monthStart(FunnelBuckets.epochMonth(next)));
        assertEquals(at("2026-12-01T00:00:00Z"), FunnelBuckets.monthStart((2026 - 1970) * 12 + 11));
        assertEquals(at("2027-01-01T00:00:00Z"), FunnelBuckets.monthStart((2026 - 1970) * 12 + 12));
    }

    @Test
    void hashesOutliveTheRangesTheyAnswer() {
        long day = FunnelBuckets.epochDay(at("2026-03-10T12:00:00Z"));
        assertEquals(at("2026-03-12T00:00:00Z") / 1000, FunnelBuckets.minuteHashExpiry(day),
                "a day's minutes stay until the next day ends");
        long month = FunnelBuckets.epochMonth(at("2026-03-10T12:00:00Z"));
        assertEquals(at("2026-05-03T00:00:00Z") / 1000, FunnelBuckets.hourHashExpiry(month),
                "a month's hours stay 32 days past its end");
        assertTrue(FunnelBuckets.HOURS_KEPT_MS <= 32 * FunnelBuckets.DAY_MS);
    }

    @Test
    void fieldsNameTheirSeriesAndUnknownOnesAreSkipped() {
        String field = FunnelBuckets.field(1_439, FeedFunnel.Stage.HELD_BACK, FeedSource.INTERESTS,
                FeedFunnel.Reason.PULLED);
        assertEquals("1439.held_back.interests.pulled", field);
        FunnelBuckets.Field parsed = FunnelBuckets.parse(field).orElseThrow();
        assertEquals(new FunnelBuckets.Field(1_439, FeedFunnel.Stage.HELD_BACK, FeedSource.INTERESTS,
                FeedFunnel.Reason.PULLED), parsed);
        assertEquals(null, FunnelBuckets.parse("3.purged.all.pool").orElseThrow().source());
        assertTrue(FunnelBuckets.parse("3.teleported.all.none").isEmpty(), "a stage of a later version");
        assertTrue(FunnelBuckets.parse("garbage").isEmpty());
    }
}
