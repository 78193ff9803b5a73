package io.pinion.graph.admin;

/**
 * What a copy or purge step did.
 *
 * @param from   first virtual shard of the range
 * @param to     last virtual shard of the range
 * @param source the instance copied from, or purged
 * @param target the instance copied to (null for a purge)
 * @param keys   keys copied or deleted
 */
public record MoveReport(int from, int to, String source, String target, long keys) {
}
