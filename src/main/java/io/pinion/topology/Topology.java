package io.pinion.topology;

/**
 * Where every backend lives: MySQL hosts and their logical shards, Redis instances and their virtual shards, HBase
 * clusters and their roles. It is data (a JSON file), validated by {@link TopologyValidator}, and can be replaced
 * at run time.
 */
public record Topology(MysqlTopology mysql, RedisTopology redis, HBaseTopology hbase) {
}
