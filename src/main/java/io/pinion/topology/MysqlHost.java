package io.pinion.topology;

import java.util.List;

/**
 * One physical MySQL host (a master, optionally with a replica) and the logical shard databases it serves.
 *
 * @param name    stable name used in logs, metrics and health checks, e.g. {@code mysql-1}
 * @param master  {@code host:port} of the master; the service reads and writes only there
 * @param replica {@code host:port} of the replica, or null; the service only watches its replication (a health
 *                probe) and it is the failover target
 * @param shards  the ranges of logical shards whose databases live on this host
 */
public record MysqlHost(String name, String master, String replica, List<ShardRange> shards) {

    public MysqlHost {
        shards = shards == null ? List.of() : List.copyOf(shards);
    }

    public HostPort masterEndpoint() {
        return HostPort.parse(master);
    }

    public HostPort replicaEndpoint() {
        return replica == null ? null : HostPort.parse(replica);
    }

    public boolean serves(int shard) {
        return shards.stream().anyMatch(range -> range.contains(shard));
    }
}
