package io.pinion.feed;

import java.util.List;

/**
 * Body of a {@code feed-pool-insert} job: score one pin for up to a page of receivers and put it into each one's pool
 * for the source, in one batched put. {@code interest} names the followed interest for the interests source.
 */
public record PoolInsert(String pin, String board, String author, long created, long scoredAt, String source,
        String interest, List<String> receivers) {
}
