package io.pinion.feed;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.DoubleUnaryOperator;

/**
 * The content generator's decisions, as a pure function of the pools' best candidates: how many pins from each
 * source (mix rates, falling back to what is available), which to drop (worth below the quality threshold, already
 * shown, duplicate across sources), which to hold back for a later visit, and the order (best first).
 */
final class ChunkPlan {

    private ChunkPlan() {
    }

    static Chunk plan(long chunkId, int size, Map<FeedSource, List<PoolEntry>> candidates, Set<Long> alreadyShown,
            FeedConfig config, DoubleUnaryOperator worth) {
        Map<FeedSource, List<PoolEntry>> eligible = new EnumMap<>(FeedSource.class);
        List<PoolKey> consumed = new ArrayList<>();
        Set<Long> seen = new HashSet<>(alreadyShown);
        for (FeedSource source : FeedSource.values()) {
            List<PoolEntry> keep = new ArrayList<>();
            for (PoolEntry entry : candidates.getOrDefault(source, List.of())) {
                if (worth.applyAsDouble(entry.key().score()) < config.qualityThreshold() || !seen.add(entry.key().pin())) {
                    consumed.add(entry.key());
                } else {
                    keep.add(entry);
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
        eligible.forEach((source, entries) -> chosen.addAll(entries.subList(0, take.get(source))));
        chosen.sort(Comparator.comparingDouble((PoolEntry e) -> e.key().score()).reversed()
                .thenComparingLong(e -> e.key().pin()));
        chosen.forEach(entry -> consumed.add(entry.key()));
        return new Chunk(chunkId, chosen.stream().map(FeedEntry::of).toList(), consumed);
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
