package io.pinion.topology;

import java.util.List;

/**
 * One Redis server and the ranges of virtual shards whose keys it holds.
 *
 * @param name          stable name, e.g. {@code redis-1}
 * @param endpoint      {@code host:port}
 * @param virtualShards ranges of virtual shards (0 … virtualShards-1) served by this instance
 */
public record RedisInstance(String name, String endpoint, List<ShardRange> virtualShards) {

    public RedisInstance {
        virtualShards = virtualShards == null ? List.of() : List.copyOf(virtualShards);
    }

    public HostPort hostPort() {
        return HostPort.parse(endpoint);
    }

    public boolean serves(int virtualShard) {
        return virtualShards.stream().anyMatch(range -> range.contains(virtualShard));
    }
}
