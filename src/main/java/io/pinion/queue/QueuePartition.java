package io.pinion.queue;

import io.pinion.mysql.ShardDatabase;

/**
 * One partition of a queue: a table in one shard database. Which broker serves it is kept in ZooKeeper.
 *
 * @param queueId   the queue's numeric id
 * @param partition 0 … partitions-1
 * @param shard     the shard database holding the table
 */
public record QueuePartition(long queueId, int partition, int shard) {

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
