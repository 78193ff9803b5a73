package io.pinion.feed.fanout;

import java.util.List;

/**
 * Body of a {@code feed-purge} job: remove a deleted pin from the pools and materialized feeds of a page of users.
 * {@code board} and {@code author} are null in jobs written before the pools were indexed.
 */
public record PoolPurge(String pin, String board, String author, List<String> users) {
}
