package io.pinion.feed;

import java.util.List;

/**
 * Body of a {@code feed-purge} job: remove a deleted pin from the pools and materialized feeds of a page of users.
 */
public record PoolPurge(String pin, List<String> users) {
}
