package io.pinion.topology;

import java.util.List;
import java.util.Optional;

/**
 * The Redis layout of the follower graph: ids hash to one of {@code virtualShards} virtual shards, and ranges of
 * virtual shards map onto instances. Virtual shards listed in {@code frozen} are being moved: reads go on, writes
 * get a 503 until the move is done (see docs/graph.md). With {@code sentinels}, every instance is a master Sentinel
 * monitors under the instance's name: the service asks the sentinels where each master is, and follows a failover.
 */
public record RedisTopology(int virtualShards, List<RedisInstance> instances, List<ShardRange> frozen,
        List<String> sentinels) {

    public RedisTopology {
        instances = instances == null ? List.of() : List.copyOf(instances);
        frozen = frozen == null ? List.of() : List.copyOf(frozen);
        sentinels = sentinels == null ? List.of() : List.copyOf(sentinels);
    }

    public RedisTopology(int virtualShards, List<RedisInstance> instances, List<ShardRange> frozen) {
        this(virtualShards, instances, frozen, List.of());
    }

    public Optional<RedisInstance> instanceOf(int virtualShard) {
        return instances.stream().filter(instance -> instance.serves(virtualShard)).findFirst();
    }
}
