package io.pinion.feed.read;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.DoubleUnaryOperator;

import io.pinion.feed.DeliveryRules;
import io.pinion.feed.FeedConfig;
import io.pinion.feed.FeedEntry;
import io.pinion.feed.FeedSource;
import io.pinion.feed.PlanCounts;
import io.pinion.feed.PoolEntry;
import io.pinion.feed.PoolKey;

/**
 * The content generator's decisions, as a pure function of the candidates: the pools' best rows and the pins pulled
 * at read time, merged per source by score. How many pins from each source (mix rates, falling back to what is
 * available), which to drop (worth below the quality threshold, already shown, duplicate across sources or between a
 * pool and a pulled source), which to hold back for a later visit, and the order (best first). Pool rows dropped or
 * shown are consumed; pulled pins neither shown nor dropped are carried into the pools.
 */
final class ChunkPlan {

    private ChunkPlan() {
    }

    static Chunk plan(long chunkId, int size, Candidates candidates, Set<Long> alreadyShown, FeedConfig config,
            DoubleUnaryOperator worth) {
        Map<FeedSource, List<PoolEntry>> merged = merge(candidates);
        Map<FeedSource, List<PoolEntry>> eligible = new EnumMap<>(FeedSource.class);
        List<PoolEntry> consumed = new ArrayList<>();
        Set<Long> seen = new HashSet<>();
        PlanCounts counts = new PlanCounts();
        for (FeedSource source : FeedSource.values()) {
            List<PoolEntry> keep = new ArrayList<>();
            for (PoolEntry entry : merged.get(source)) {
                long pin = entry.key().pin();
                boolean pulled = candidates.isPulled(entry);
                counts.add(source, pulled ? PlanCounts.Kind.PULLED : PlanCounts.Kind.POOLED, entry);
                PlanCounts.Kind dropped = null;
                if (!DeliveryRules.worthShowing(worth.applyAsDouble(entry.key().score()), config.qualityThreshold())) {
                    dropped = PlanCounts.Kind.BELOW_BAR;
                } else if (alreadyShown.contains(pin)) {
                    dropped = PlanCounts.Kind.ALREADY_SHOWN;
                } else if (!seen.add(pin)) {
                    dropped = PlanCounts.Kind.DUPLICATE;
                } else {
                    keep.add(entry);
                }
                if (dropped != null) {
                    counts.add(source, dropped, entry);
                    if (!pulled) {
                        consumed.add(entry);
                    }
                }
            }
            eligible.put(source, keep);
        }
        Map<FeedSource, Integer> caps = new EnumMap<>(FeedSource.class);
        eligible.forEach((source, entries) -> caps.put(source,
                entries.size() - (int) Math.floor(entries.size() * config.holdBack())));
        Map<FeedSource, Integer> take = quotas(size, config);
        int left = 0;
        for (FeedSource source : FeedSource.values()) {
            int granted = Math.min(take.get(source), caps.get(source));
            left += take.get(source) - granted;
            take.put(source, granted);
        }
        for (FeedSource source : byRate(config)) {
            int extra = Math.min(left, caps.get(source) - take.get(source));
            take.put(source, take.get(source) + extra);
            left -= extra;
        }
        List<PoolEntry> chosen = new ArrayList<>();
        List<PoolEntry> carried = new ArrayList<>();
        for (FeedSource source : FeedSource.values()) {
            List<PoolEntry> entries = eligible.get(source);
            for (PoolEntry taken : entries.subList(0, take.get(source))) {
                counts.add(source, PlanCounts.Kind.CHOSEN, taken);
                chosen.add(taken);
            }
            for (PoolEntry rest : entries.subList(take.get(source), entries.size())) {
                if (candidates.isPulled(rest)) {
                    counts.add(source, PlanCounts.Kind.HELD_BACK_PULLED, rest);
                    carried.add(rest);
                } else {
                    counts.add(source, PlanCounts.Kind.HELD_BACK_POOLED, rest);
                }
            }
        }
        chosen.sort(PoolEntry.BEST_FIRST);
        chosen.stream().filter(entry -> !candidates.isPulled(entry)).forEach(consumed::add);
        return new Chunk(chunkId, chosen.stream().map(FeedEntry::of).toList(), consumed, carried,
                candidates.pulledAt(), counts);
    }

    /** Per source: the pool rows and the pulled pins (those that are not already the same pool row), best first. */
    private static Map<FeedSource, List<PoolEntry>> merge(Candidates candidates) {
        Map<FeedSource, List<PoolEntry>> merged = new EnumMap<>(FeedSource.class);
        Set<PoolKey> rows = new HashSet<>();
        for (FeedSource source : FeedSource.values()) {
            List<PoolEntry> pooled = candidates.pooled().getOrDefault(source, List.of());
            pooled.forEach(entry -> rows.add(entry.key()));
            merged.put(source, new ArrayList<>(pooled));
        }
        for (PoolEntry entry : candidates.pulled()) {
            if (!rows.contains(entry.key())) {
                merged.get(entry.key().source()).add(entry);
            }
        }
        merged.values().forEach(entries -> entries.sort(PoolEntry.BEST_FIRST));
        return merged;
    }

    /** Pins per source for a chunk of {@code size}: proportional to the rates, remainders to the largest rates. */
    static Map<FeedSource, Integer> quotas(int size, FeedConfig config) {
        Map<FeedSource, Double> rates = rates(config);
        double total = rates.values().stream().mapToDouble(Double::doubleValue).sum();
        Map<FeedSource, Integer> quotas = new EnumMap<>(FeedSource.class);
        int given = 0;
        for (FeedSource source : FeedSource.values()) {
            int quota = total <= 0 ? 0 : (int) Math.floor(size * rates.get(source) / total);
            quotas.put(source, quota);
            given += quota;
        }
        for (FeedSource source : byRate(config)) {
            if (given >= size) {
                break;
            }
            quotas.put(source, quotas.get(source) + 1);
            given++;
        }
        return quotas;
    }

    private static List<FeedSource> byRate(FeedConfig config) {
        Map<FeedSource, Double> rates = rates(config);
        List<FeedSource> sources = new ArrayList<>(List.of(FeedSource.values()));
        sources.sort(Comparator.comparingDouble((FeedSource s) -> rates.get(s)).reversed());
        return sources;
    }

    private static Map<FeedSource, Double> rates(FeedConfig config) {
        Map<FeedSource, Double> rates = new EnumMap<>(FeedSource.class);
        rates.put(FeedSource.FOLLOWING, Math.max(0, config.followingRate()));
        rates.put(FeedSource.RELATED, Math.max(0, config.relatedRate()));
        rates.put(FeedSource.INTERESTS, Math.max(0, config.interestsRate()));
        return rates;
    }
}
