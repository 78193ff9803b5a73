package io.pinion.feed.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import io.pinion.feed.FeedConfig;
import io.pinion.feed.FeedEntry;
import io.pinion.feed.FeedSource;
import io.pinion.feed.FeedState;
import io.pinion.feed.PlanCounts;
import io.pinion.feed.PoolEntry;
import io.pinion.feed.PoolKey;

/**
 * The content generator's decisions with fixed candidates: mix rates, fallback to what is available, hold-back,
 * the quality threshold, duplicates, and best-first order.
 */
class ChunkPlanTest {

    private static final long USER = 42;

    /** The defaults of {@link FeedConfig} with the rates, hold-back and threshold given. */
    record Settings(double followingRate, double relatedRate, double interestsRate, double holdBack,
            double qualityThreshold) implements FeedConfig {
        public Duration halfLife() { return Duration.ofHours(24); }
        public double followingWeight() { return 1.0; }
        public double relatedWeight() { return 0.6; }
        public double interestsWeight() { return 0.4; }
        public int chunkSize() { return 25; }
        public int maxChunkSize() { return 200; }
        public int materializedMax() { return 1000; }
        public Duration generatorBudget() { return Duration.ofMillis(150); }
        public int backfill() { return 50; }
        public int fanoutBatch() { return 1000; }
        public int pullThreshold() { return 10_000; }
        public Duration inactiveAfter() { return Duration.ofDays(14); }
        public int poolMax() { return 1000; }
        public Duration pullOverlap() { return Duration.ofSeconds(5); }
        public Duration pullHorizon() { return Duration.ofDays(7); }
        public int followedSourcesMax() { return 500; }
        public int regeneratePerSource() { return 10; }
        public Compaction compaction() { throw new UnsupportedOperationException(); }
        public Funnel funnel() { throw new UnsupportedOperationException(); }
        public ReadAhead readAhead() { throw new UnsupportedOperationException(); }
    }

    private static final FeedConfig DEFAULTS = new Settings(0.60, 0.25, 0.15, 0.2, 0.0);

    /** {@code n} candidates of one source, pins {@code base…}, scores {@code top, top-1, …}. */
    private static List<PoolEntry> pool(FeedSource source, int n, long base, double top) {
        List<PoolEntry> entries = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            entries.add(new PoolEntry(new PoolKey(USER, source, top - i, base + i), 7, 8, 0));
        }
        return entries;
    }

    private static Map<FeedSource, List<PoolEntry>> pools(int following, int related, int interests) {
        Map<FeedSource, List<PoolEntry>> pools = new EnumMap<>(FeedSource.class);
        pools.put(FeedSource.FOLLOWING, pool(FeedSource.FOLLOWING, following, 1000, 100));
        pools.put(FeedSource.RELATED, pool(FeedSource.RELATED, related, 2000, 80));
        pools.put(FeedSource.INTERESTS, pool(FeedSource.INTERESTS, interests, 3000, 60));
        return pools;
    }

    private static Candidates pooled(Map<FeedSource, List<PoolEntry>> pools) {
        return new Candidates(FeedState.NONE, 25, pools, List.of(), 0);
    }

    private static Map<FeedSource, Long> bySource(Chunk chunk) {
        return chunk.entries().stream().collect(Collectors.groupingBy(FeedEntry::source, Collectors.counting()));
    }

    @Test
    void fullPoolsAreMixedAtTheConfiguredRates() {
        Chunk chunk = ChunkPlan.plan(1, 20, pooled(pools(40, 40, 40)), Set.of(), DEFAULTS, score -> score);
        assertEquals(20, chunk.entries().size());
        assertEquals(
                Map.of(FeedSource.FOLLOWING, 12L, FeedSource.RELATED, 5L, FeedSource.INTERESTS, 3L), bySource(chunk));
        Chunk other = ChunkPlan.plan(
                1, 100, pooled(pools(200, 200, 200)), Set.of(), new Settings(0.5, 0.3, 0.2, 0.2, 0.0), score -> score);
        assertEquals(
                Map.of(FeedSource.FOLLOWING, 50L, FeedSource.RELATED, 30L, FeedSource.INTERESTS, 20L), bySource(other));
    }

    @Test
    void theChunkIsBestFirstAndTakesTheBestOfEachPool() {
        Chunk chunk = ChunkPlan.plan(1, 20, pooled(pools(40, 40, 40)), Set.of(), DEFAULTS, score -> score);
        for (int i = 1; i < chunk.entries().size(); i++) {
            assertTrue(chunk.entries().get(i - 1).score() >= chunk.entries().get(i).score());
        }
        assertEquals(List.of(2000L, 2001L, 2002L, 2003L, 2004L), chunk.entries().stream()
                .filter(e -> e.source() == FeedSource.RELATED).map(FeedEntry::pin).toList());
        assertEquals(20, chunk.consumed().size(), "what is handed out leaves the pools");
    }

    @Test
    void aShortSourceHoldsBackAShareAndTheOthersFillIn() {
        // following has only 10: 20% (2) are held back for a later visit, the 4 missing come from the others
        Chunk chunk = ChunkPlan.plan(1, 20, pooled(pools(10, 40, 40)), Set.of(), DEFAULTS, score -> score);
        Map<FeedSource, Long> counts = bySource(chunk);
        assertEquals(8L, counts.get(FeedSource.FOLLOWING));
        assertEquals(20, chunk.entries().size());
        assertEquals(9L, counts.get(FeedSource.RELATED), "related (the larger rate) takes the 4 left over first");
        assertEquals(3L, counts.get(FeedSource.INTERESTS));
        assertTrue(
                chunk.entries().stream().noneMatch(e -> e.pin() == 1008 || e.pin() == 1009),
                "the weakest are held back");
    }

    @Test
    void whenEverythingIsShortTheChunkIsSmallerAndSomeIsStillHeldBack() {
        Chunk chunk = ChunkPlan.plan(1, 20, pooled(pools(5, 5, 0)), Set.of(), DEFAULTS, score -> score);
        assertEquals(8, chunk.entries().size(), "4 of 5 from each, one of each held back");
    }

    @Test
    void weakPinsDuplicatesAndPinsAlreadyShownAreDroppedFromThePools() {
        Map<FeedSource, List<PoolEntry>> pools = pools(10, 10, 0);
        // related offers pin 1000 again (it is also in following), pin 1001 was shown on an earlier visit
        pools.get(FeedSource.RELATED).set(0, new PoolEntry(new PoolKey(USER, FeedSource.RELATED, 80, 1000), 7, 8, 0));
        Chunk chunk = ChunkPlan.plan(
                1, 20, pooled(pools), Set.of(1001L), new Settings(0.6, 0.25, 0.15, 0.0, 75.5), score -> score);
        List<Long> shown = chunk.entries().stream().map(FeedEntry::pin).toList();
        assertEquals(
                List.of(1000L, 1002L, 1003L, 1004L, 1005L, 1006L, 1007L, 1008L, 1009L, 2001L, 2002L, 2003L, 2004L),
                shown);
        List<Long> consumed = chunk.consumed().stream().map(e -> e.key().pin()).sorted().toList();
        assertEquals(
                20, consumed.size(), "shown, duplicate, already shown and below the threshold all leave the pools");
        assertTrue(consumed.containsAll(List.of(1001L, 2005L, 2009L)));
        assertEquals(2, consumed.stream().filter(pin -> pin == 1000L).count(), "both copies of the duplicate");
    }

    @Test
    void pulledPinsAreMergedByScoreDroppedWhenAlreadyPooledOrShownAndCarriedWhenNotTaken() {
        Map<FeedSource, List<PoolEntry>> pools = pools(5, 0, 0); // following pins 1000..1004 scored 100..96
        List<PoolEntry> pulled = List.of(
                new PoolEntry(new PoolKey(USER, FeedSource.FOLLOWING, 98.5, 7000), 7, 8, 0),
                new PoolEntry(new PoolKey(USER, FeedSource.FOLLOWING, 99.5, 1002), 7, 8, 0), // pooled at another score
                new PoolEntry(new PoolKey(USER, FeedSource.FOLLOWING, 96, 1004), 7, 8, 0), // the very pool row
                new PoolEntry(new PoolKey(USER, FeedSource.FOLLOWING, 97, 7003), 7, 8, 0), // shown on an earlier visit
                new PoolEntry(new PoolKey(USER, FeedSource.FOLLOWING, 10, 7001), 7, 8, 0),
                new PoolEntry(new PoolKey(USER, FeedSource.INTERESTS, 50, 7002), 7, 8, 0, "cats"));
        Candidates candidates = new Candidates(FeedState.NONE, 4, pools, pulled, 123);
        Chunk chunk = ChunkPlan.plan(1, 4, candidates, Set.of(7003L), new Settings(1, 0, 0, 0.0, 0.0), score -> score);

        assertEquals(List.of(1000L, 1002L, 1001L, 7000L), chunk.entries().stream().map(FeedEntry::pin).toList(),
                "best first across pooled and pulled, the pulled copy of 1002 (scored higher) shown once");
        assertEquals(List.of(1000L, 1001L, 1002L), chunk.consumed().stream().map(e -> e.key().pin()).sorted().toList(),
                "the pool rows shown and the pool copy of 1002 leave the pools; nothing pulled is 'consumed'");
        assertEquals(List.of(7001L, 7002L), chunk.carried().stream().map(e -> e.key().pin()).sorted().toList(),
                "pulled pins neither shown nor dropped go into the pools; 7003 was shown, 1004 is already a pool row");
        assertEquals(123, chunk.pulledUntil());
        PlanCounts counts = chunk.counts();
        assertEquals(5, counts.get(FeedSource.FOLLOWING, PlanCounts.Kind.POOLED));
        assertEquals(
                4,
                counts.get(FeedSource.FOLLOWING, PlanCounts.Kind.PULLED),
                "the copy of pool row 1004 is no candidate");
        assertEquals(1, counts.get(FeedSource.INTERESTS, PlanCounts.Kind.PULLED));
        assertEquals(1, counts.get(FeedSource.FOLLOWING, PlanCounts.Kind.DUPLICATE), "the pool copy of 1002");
        assertEquals(1, counts.get(FeedSource.FOLLOWING, PlanCounts.Kind.ALREADY_SHOWN), "7003");
        assertEquals(0, counts.total(PlanCounts.Kind.BELOW_BAR));
        assertEquals(4, counts.get(FeedSource.FOLLOWING, PlanCounts.Kind.CHOSEN));
        assertEquals(2, counts.get(FeedSource.FOLLOWING, PlanCounts.Kind.HELD_BACK_POOLED), "1003 and 1004");
        assertEquals(1, counts.get(FeedSource.FOLLOWING, PlanCounts.Kind.HELD_BACK_PULLED), "7001");
        assertEquals(1, counts.get(FeedSource.INTERESTS, PlanCounts.Kind.HELD_BACK_PULLED), "7002");
        int considered = counts.total(PlanCounts.Kind.POOLED) + counts.total(PlanCounts.Kind.PULLED);
        assertEquals(considered, counts.total(PlanCounts.Kind.BELOW_BAR) + counts.total(PlanCounts.Kind.DUPLICATE)
                + counts.total(PlanCounts.Kind.ALREADY_SHOWN) + counts.total(PlanCounts.Kind.CHOSEN)
                + counts.total(PlanCounts.Kind.HELD_BACK_POOLED) + counts.total(PlanCounts.Kind.HELD_BACK_PULLED),
                "every candidate counted once");
    }
}
