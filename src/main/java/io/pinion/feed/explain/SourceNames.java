package io.pinion.feed.explain;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.feed.store.FeedTables;
import io.pinion.feed.store.StandbyReplication;
import io.pinion.graph.GraphRedis;
import io.pinion.hbase.HBaseClusters;
import io.pinion.topology.ActiveTopology;
import io.pinion.topology.HBaseRole;
import io.pinion.topology.MysqlHost;

/**
 * Names the data source of a stage as an operator finds it in the topology: {@code mysql-2 (shard 7)},
 * {@code redis-1 (g:{12}:u:42:fs)}, {@code hbase-primary (pinion_feed_pools)}. Names and keys only, never an address.
 */
@ApplicationScoped
class SourceNames {

    private final ActiveTopology topology;
    private final GraphRedis redis;
    private final HBaseClusters hbase;
    private final StandbyReplication replication;

    SourceNames(ActiveTopology topology, GraphRedis redis, HBaseClusters hbase, StandbyReplication replication) {
        this.topology = topology;
        this.redis = redis;
        this.hbase = hbase;
        this.replication = replication;
    }

    String mysql(int shard) {
        String host = topology.get().mysql().hostOf(shard).map(MysqlHost::name).orElse("mysql");
        return host + " (shard " + shard + ")";
    }

    /** The Redis instance serving the virtual shard, and the key read there. */
    String redis(int vs, String key) {
        return redis(Map.of(key, vs));
    }

    /** Each Redis instance read and the keys read there: key → its virtual shard, in the order given. */
    String redis(Map<String, Integer> keys) {
        Map<String, List<String>> byInstance = new LinkedHashMap<>();
        keys.forEach((key, vs) -> byInstance.computeIfAbsent(redis.instanceOf(vs), name -> new ArrayList<>()).add(key));
        List<String> sources = new ArrayList<>();
        byInstance.forEach((instance, read) -> sources.add(instance + " (" + String.join(", ", read) + ")"));
        return String.join(", ", sources);
    }

    String pools() {
        return hbase.specFor(HBaseRole.POOLS).name() + " (" + FeedTables.POOLS.getNameAsString() + ")";
    }

    /** The materialized primary, and the standby when reads are hedged between two clusters. */
    String materialized() {
        String primary = hbase.specFor(HBaseRole.MATERIALIZED_PRIMARY).name();
        String table = FeedTables.MATERIALIZED.getNameAsString();
        return replication.separate()
                ? primary + " or " + hbase.specFor(HBaseRole.MATERIALIZED_STANDBY).name() + ", hedged (" + table + ")"
                : primary + " (" + table + ")";
    }
}
