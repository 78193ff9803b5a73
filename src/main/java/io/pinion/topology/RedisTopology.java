package io.pinion.topology;

import java.util.List;
import java.util.Optional;

/**
 * The Redis layout of the follower graph: ids hash to one of {@code virtualShards} virtual shards, and ranges of
 * virtual shards map onto instances.
 */
public record RedisTopology(int virtualShards, List<RedisInstance> instances) {

    public RedisTopology {
        instances = instances == null ? List.of() : List.copyOf(instances);
    }

    public Optional<RedisInstance> instanceOf(int virtualShard) {
        return instances.stream().filter(instance -> instance.serves(virtualShard)).findFirst();
    }
}
