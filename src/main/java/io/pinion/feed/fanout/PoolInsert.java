package io.pinion.feed.fanout;

import java.util.List;

/**
 * Body of a {@code feed-pool-insert} job: score one pin for a page of active receivers and put it into each one's
 * pool for the source, in one batched put. {@code affinities} (each receiver's affinity for the author, read when
 * the page was) is null in jobs written before it existed; they are then read again.
 */
public record PoolInsert(String pin, String board, String author, long created, long scoredAt, String source,
        String interest, List<String> receivers, List<Long> affinities) {
}
