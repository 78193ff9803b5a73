package io.pinion.feed;

/**
 * Scores a pin for one receiver; higher is better. Must be deterministic given its input and return a finite
 * number. Pins of one pool are compared by the score stored when they entered it, whenever that was, so a score
 * must rank pins the same way at any later time (a time-decayed score does so when it is kept in log form, as the
 * default scorer does). Replace the default by declaring another {@code @ApplicationScoped} bean of this type.
 */
public interface FeedScorer {

    double score(ScoringInput input);

    /** The pin's worth at time {@code now} (epoch ms), compared with {@code pinion.feed.quality-threshold}. */
    default double valueAt(double score, long now) {
        return score;
    }
}
