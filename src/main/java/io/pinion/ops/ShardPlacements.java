package io.pinion.ops;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.failure.NotFound;
import io.pinion.mysql.ShardDatabase;
import io.pinion.topology.ActiveTopology;
import io.pinion.topology.MysqlHost;
import io.pinion.topology.MysqlTopology;

/** Answers where a logical shard lives, from the topology in force. */
@ApplicationScoped
public class ShardPlacements {

    private final ActiveTopology topology;

    ShardPlacements(ActiveTopology topology) {
        this.topology = topology;
    }

    public ShardPlacement of(int shard) {
        MysqlTopology mysql = topology.get().mysql();
        if (!mysql.exists(shard)) {
            throw new NotFound("shard_not_found",
                    "shard " + shard + " is not in the topology (0.." + (mysql.shardCount() - 1) + ")");
        }
        MysqlHost host = mysql.hostOf(shard).orElseThrow();
        return new ShardPlacement(shard, ShardDatabase.name(shard), host.name(), host.master(),
                mysql.openShards().contains(shard));
    }
}
