package io.pinion.queue.broker;

import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.mysql.ShardDatabase;
import io.pinion.mysql.ShardSql;
import io.pinion.queue.QueuePartition;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * Broker membership and partition ownership in the control tables. A broker is live while its heartbeat row has
 * not expired; a partition belongs to the broker named in its row until {@code lease_expires}. Claims are
 * compare-and-set, so two brokers never both win a partition.
 */
@ApplicationScoped
public class BrokerLeases {

    /** A live broker. */
    public record Broker(String id, String address, long startedAt, long heartbeatAt, long expiresAt) {
    }

    private static final int CONTROL = ShardDatabase.CONTROL_SHARD;
    private static final String BROKERS = ShardDatabase.table(CONTROL, "queue_brokers");
    private static final String PARTITIONS = ShardDatabase.table(CONTROL, "queue_partitions");

    private final ShardSql sql;

    BrokerLeases(ShardSql sql) {
        this.sql = sql;
    }

    Uni<Void> heartbeat(String brokerId, String address, long startedAt, long now, long expires) {
        return sql.query(CONTROL, "INSERT INTO " + BROKERS + " (broker_id, address, started_at, heartbeat_at, expires_at)"
                        + " VALUES (?, ?, ?, ?, ?) ON DUPLICATE KEY UPDATE heartbeat_at = VALUES(heartbeat_at),"
                        + " expires_at = VALUES(expires_at)",
                Tuple.of(brokerId, address, startedAt, now, expires)).replaceWithVoid();
    }

    /** Extends every lease the broker holds. */
    Uni<Void> renew(String brokerId, long expires) {
        return sql.query(CONTROL, "UPDATE " + PARTITIONS + " SET lease_expires = ? WHERE owner = ?",
                Tuple.of(expires, brokerId)).replaceWithVoid();
    }

    /** Brokers whose heartbeat has not expired, ordered by id. */
    public Uni<List<Broker>> live(long now) {
        return sql.query(CONTROL, "SELECT broker_id, address, started_at, heartbeat_at, expires_at FROM " + BROKERS
                        + " WHERE expires_at >= ? ORDER BY broker_id", Tuple.of(now))
                .map(rows -> {
                    List<Broker> brokers = new ArrayList<>();
                    for (Row row : rows) {
                        brokers.add(new Broker(row.getString("broker_id"), row.getString("address"),
                                row.getLong("started_at"), row.getLong("heartbeat_at"), row.getLong("expires_at")));
                    }
                    return brokers;
                });
    }

    /** Every partition with its owner. */
    public Uni<List<QueuePartition>> partitions() {
        return sql.query(CONTROL, "SELECT queue_id, partition_no, shard, owner, lease_expires FROM " + PARTITIONS
                        + " ORDER BY queue_id, partition_no", Tuple.tuple())
                .map(rows -> {
                    List<QueuePartition> partitions = new ArrayList<>();
                    for (Row row : rows) {
                        partitions.add(new QueuePartition(row.getLong("queue_id"), row.getInteger("partition_no"),
                                row.getInteger("shard"), row.getString("owner"), row.getLong("lease_expires")));
                    }
                    return partitions;
                });
    }

    /** Takes the partition if it is free or its lease has expired; true when this broker now owns it. */
    Uni<Boolean> claim(QueuePartition partition, String brokerId, long now, long expires) {
        return sql.query(CONTROL, "UPDATE " + PARTITIONS + " SET owner = ?, lease_expires = ?, epoch = epoch + 1"
                        + " WHERE queue_id = ? AND partition_no = ? AND (owner IS NULL OR owner = ? OR lease_expires < ?)",
                Tuple.of(brokerId, expires, partition.queueId(), partition.partition()).addString(brokerId).addLong(now))
                .map(rows -> rows.rowCount() == 1);
    }

    /** Gives the partition up so another broker can claim it at once. */
    Uni<Void> release(QueuePartition partition, String brokerId) {
        return sql.query(CONTROL, "UPDATE " + PARTITIONS + " SET owner = NULL, lease_expires = 0"
                        + " WHERE queue_id = ? AND partition_no = ? AND owner = ?",
                Tuple.of(partition.queueId(), partition.partition(), brokerId)).replaceWithVoid();
    }

    /** Removes the broker's heartbeat row (clean shutdown). */
    Uni<Void> leave(String brokerId) {
        return sql.query(CONTROL, "DELETE FROM " + BROKERS + " WHERE broker_id = ?", Tuple.of(brokerId)).replaceWithVoid();
    }

    /** Deletes heartbeat rows that expired long ago. */
    Uni<Void> forgetDead(long before) {
        return sql.query(CONTROL, "DELETE FROM " + BROKERS + " WHERE expires_at < ?", Tuple.of(before)).replaceWithVoid();
    }
}
