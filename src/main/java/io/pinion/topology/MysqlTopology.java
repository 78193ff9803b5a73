package io.pinion.topology;

import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;

/**
 * The sharded MySQL layout: how many logical shards exist, which of them take new objects, and where each lives.
 *
 * @param shardCount number of logical shards ({@code db00000} … {@code db<shardCount-1>})
 * @param openShards the range of shards that receive new objects; opening another range later moves no data
 * @param hosts      the physical hosts; together their ranges cover every shard exactly once
 */
public record MysqlTopology(int shardCount, ShardRange openShards, List<MysqlHost> hosts) {

    public MysqlTopology {
        hosts = hosts == null ? List.of() : List.copyOf(hosts);
    }

    public Optional<MysqlHost> hostOf(int shard) {
        return hosts.stream().filter(host -> host.serves(shard)).findFirst();
    }

    public boolean exists(int shard) {
        return shard >= 0 && shard < shardCount;
    }

    /** Every shard number served by the host, in ascending order. */
    public int[] shardsOf(MysqlHost host) {
        return host.shards().stream()
                .flatMapToInt(range -> IntStream.rangeClosed(range.from(), range.to()))
                .sorted()
                .toArray();
    }
}
