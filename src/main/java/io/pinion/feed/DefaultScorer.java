package io.pinion.feed;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkus.arc.DefaultBean;

/**
 * The default score. A pin's worth to a receiver at time t is
 * {@code 100 × source weight × (1 + ln(1 + affinity)) × 0.5^((t − created) / half-life)}: recency decays
 * exponentially, followed boards rank above related pins above interests, and affinity for the author lifts a pin.
 * Because the decay is the same for every pin, the order never changes with t; the stored score is the worth's
 * base-2 logarithm taken at a fixed epoch, {@code log2(100 × weight × affinity factor) + (created − epoch) /
 * half-life}, which needs no clock and stays comparable between pins scored at different times.
 */
@ApplicationScoped
@DefaultBean
public class DefaultScorer implements FeedScorer {

    /** 2020-01-01T00:00:00Z. */
    static final long EPOCH = 1_577_836_800_000L;

    private final double halfLifeMs;
    private final double followingWeight;
    private final double relatedWeight;
    private final double interestsWeight;

    @Inject
    DefaultScorer(FeedConfig config) {
        this(config.halfLife().toMillis(), config.followingWeight(), config.relatedWeight(), config.interestsWeight());
    }

    DefaultScorer(double halfLifeMs, double followingWeight, double relatedWeight, double interestsWeight) {
        this.halfLifeMs = halfLifeMs;
        this.followingWeight = followingWeight;
        this.relatedWeight = relatedWeight;
        this.interestsWeight = interestsWeight;
    }

    @Override
    public double score(ScoringInput input) {
        double affinity = 1 + Math.log1p(Math.max(0, input.affinity()));
        double base = 100 * weight(input.source()) * affinity;
        return log2(base) + (input.pinCreated() - EPOCH) / halfLifeMs;
    }

    @Override
    public double valueAt(double score, long now) {
        return Math.pow(2, score - (now - EPOCH) / halfLifeMs);
    }

    private double weight(FeedSource source) {
        return switch (source) {
            case FOLLOWING -> followingWeight;
            case RELATED -> relatedWeight;
            case INTERESTS -> interestsWeight;
        };
    }

    private static double log2(double value) {
        return Math.log(value) / Math.log(2);
    }
}
