package io.pinion.ops;

/** Where one logical shard lives: its database, the MySQL host serving it, and whether it takes new objects. */
public record ShardPlacement(int shard, String database, String host, String master, boolean open) {
}
