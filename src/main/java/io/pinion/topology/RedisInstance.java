package io.pinion.topology;

import java.util.List;

/**
 * One Redis server and the ranges of virtual shards whose keys it holds.
 *
 * @param name          stable name, e.g. {@code redis-1}; with Sentinel, also the name Sentinel monitors it by
 * @param endpoint      {@code host:port}; with Sentinel, only where the master was first (Sentinel tells the current
 * one)
 * @param virtualShards ranges of virtual shards (0 … virtualShards-1) served by this instance
 * @param replica       {@code host:port} of its replica, or null (shown by the health probes)
 */
public record RedisInstance(String name, String endpoint, List<ShardRange> virtualShards, String replica) {

    public RedisInstance {
        virtualShards = virtualShards == null ? List.of() : List.copyOf(virtualShards);
    }

    public RedisInstance(String name, String endpoint, List<ShardRange> virtualShards) {
        this(name, endpoint, virtualShards, null);
    }

    public HostPort hostPort() {
        return HostPort.parse(endpoint);
    }

    public boolean serves(int virtualShard) {
        return virtualShards.stream().anyMatch(range -> range.contains(virtualShard));
    }
}
