package io.pinion.feed;

/**
 * Everything a score may depend on; scorers are pure functions of it, so a score can be recomputed and tested.
 *
 * @param source      the pool the pin goes to
 * @param pinCreated  when the pin was created (epoch ms)
 * @param now         the scoring time (epoch ms)
 * @param affinity    how often the receiver liked or saved the author's pins (0 when unknown)
 */
public record ScoringInput(FeedSource source, long pinCreated, long now, long affinity) {
}
