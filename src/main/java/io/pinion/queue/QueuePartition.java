package io.pinion.queue;

import io.pinion.mysql.ShardDatabase;

/**
 * One partition of a queue: a table in one shard database, and the broker that currently owns it.
 *
 * @param queueId      the queue's numeric id
 * @param partition    0 … partitions-1
 * @param shard        the shard database holding the table
 * @param owner        the owning broker, or null
 * @param leaseExpires when the owner's lease ends (epoch ms)
 */
public record QueuePartition(long queueId, int partition, int shard, String owner, long leaseExpires) {

    /** The quoted table name, {@code `db00012`.`jobs_q3_p1`}. */
    public String table() {
        return ShardDatabase.table(shard, tableName(queueId, partition));
    }

    public static String tableName(long queueId, int partition) {
        return "jobs_q" + queueId + "_p" + partition;
    }

    /** Identifies the partition across queues. */
    public String key() {
        return queueId + "/" + partition;
    }
}
