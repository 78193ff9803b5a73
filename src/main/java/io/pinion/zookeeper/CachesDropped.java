package io.pinion.zookeeper;

/**
 * Every instance is to drop what it caches from the stores (an operator asked, or {@code bin/restore} put older
 * data under the caches): fired on each instance when {@code <root>/caches} changes.
 *
 * @param reason  what the dropper said
 * @param version the znode's version: one per drop
 */
public record CachesDropped(String reason, int version) {
}
