package io.pinion.topology;

import java.util.List;
import java.util.Optional;

/**
 * The Redis layout of the follower graph: ids hash to one of {@code virtualShards} virtual shards, and ranges of
 * virtual shards map onto instances. Virtual shards listed in {@code frozen} are being moved: reads go on, writes
 * get a 503 until the move is done (see docs/graph.md).
 */
public record RedisTopology(int virtualShards, List<RedisInstance> instances, List<ShardRange> frozen) {

    public RedisTopology {
        instances = instances == null ? List.of() : List.copyOf(instances);
        frozen = frozen == null ? List.of() : List.copyOf(frozen);
    }

    public Optional<RedisInstance> instanceOf(int virtualShard) {
        return instances.stream().filter(instance -> instance.serves(virtualShard)).findFirst();
    }
}
