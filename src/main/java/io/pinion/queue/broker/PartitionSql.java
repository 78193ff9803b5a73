package io.pinion.queue.broker;

import java.util.ArrayList;
import java.util.List;

import io.pinion.id.PinionId;
import io.pinion.mysql.ShardSql;
import io.pinion.queue.JobAcks;
import io.pinion.queue.LeasedJob;
import io.pinion.queue.QueuePartition;
import io.pinion.queue.RetryPolicy;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * The statements the owning broker runs on one partition table: finding due jobs, leasing and releasing them,
 * sweeping expired leases, deleting finished jobs, measuring depth. Statements on id lists walk the primary key
 * ({@link JobAcks#BY_ID}); the ones that can lose a lock conflict are retried.
 */
final class PartitionSql {

    /** A row at the head of a FIFO partition. */
    record HeadRow(long id, int state, long runAfter, String leaseOwner) {
    }

    /** Pending jobs and the earliest run_after among them (null when none). */
    record Depth(long pending, Long earliestRunAfter) {
    }

    private final ShardSql sql;
    private final QueuePartition partition;
    private final String table;
    private final String brokerId;

    PartitionSql(ShardSql sql, QueuePartition partition, String brokerId) {
        this.sql = sql;
        this.partition = partition;
        this.table = partition.table();
        this.brokerId = brokerId;
    }

    String table() {
        return table;
    }

    /**
     * Up to {@code batch} due ids in hand-out order (priority, run_after, id), read from the covering {@code due}
     * index one priority at a time, so jobs scheduled for later never slow the scan.
     */
    Uni<List<Long>> due(int batch, long now) {
        String part = "(SELECT id, priority, run_after FROM " + table
                + " WHERE state = 0 AND priority = ? AND run_after <= ? ORDER BY run_after, id LIMIT ?)";
        String statement = "SELECT id FROM (" + part + " UNION ALL " + part + " UNION ALL " + part
                + ") AS due ORDER BY priority, run_after, id LIMIT ?";
        Tuple args = Tuple.tuple();
        for (int priority = 1; priority <= 3; priority++) {
            args.addInteger(priority).addLong(now).addInteger(batch);
        }
        args.addInteger(batch);
        return sql.query(partition.shard(), statement, args).map(rows -> {
            List<Long> ids = new ArrayList<>(rows.size());
            rows.forEach(row -> ids.add(row.getLong("id")));
            return ids;
        });
    }

    /** The unfinished rows of a FIFO partition from {@code floor} on, in id order. */
    Uni<List<HeadRow>> head(long floor, int limit) {
        return sql.query(partition.shard(), "SELECT id, state, run_after, lease_owner FROM " + table
                        + " WHERE id >= ? AND state IN (0, 1) ORDER BY id LIMIT ?", Tuple.of(floor, limit))
                .map(rows -> {
                    List<HeadRow> head = new ArrayList<>(rows.size());
                    for (Row row : rows) {
                        head.add(new HeadRow(row.getLong("id"), row.getInteger("state"), row.getLong("run_after"),
                                row.getString("lease_owner")));
                    }
                    return head;
                });
    }

    /** Leases the PENDING jobs among {@code ids} to this broker until {@code expires} and reads back those it got. */
    Uni<List<LeasedJob>> lease(List<Long> ids, long now, long expires, String queueName) {
        String in = ShardSql.placeholders(ids.size());
        Tuple update = Tuple.of(brokerId, expires, now);
        ids.forEach(update::addLong);
        Tuple select = Tuple.tuple();
        ids.forEach(select::addLong);
        select.addString(brokerId).addLong(expires);
        return sql.queryRetryingConflicts(partition.shard(), "UPDATE " + table + JobAcks.BY_ID + " SET state = 1,"
                        + " lease_owner = ?, lease_expires = ?, attempts_made = attempts_made + 1, updated_at = ?"
                        + " WHERE id IN (" + in + ") AND state = 0", update)
                .flatMap(ignored -> sql.query(partition.shard(), "SELECT id, priority, run_after, attempts_made,"
                        + " attempts_allowed, body, created_at FROM " + table + JobAcks.BY_ID + " WHERE id IN (" + in
                        + ") AND state = 1 AND lease_owner = ? AND lease_expires = ?", select))
                .map(rows -> {
                    List<LeasedJob> jobs = new ArrayList<>(rows.size());
                    for (Row row : rows) {
                        jobs.add(new LeasedJob(PinionId.decode(row.getLong("id")), queueName, partition,
                                row.getInteger("priority"), row.getBuffer("body").getBytes(),
                                row.getInteger("attempts_made"), row.getInteger("attempts_allowed"), expires,
                                row.getLong("created_at"), row.getLong("run_after")));
                    }
                    return jobs;
                });
    }

    /** Returns buffered (never handed out) jobs to PENDING and refunds the attempt they were charged. */
    Uni<Void> release(List<LeasedJob> jobs) {
        Tuple args = Tuple.of(System.currentTimeMillis());
        jobs.forEach(job -> args.addLong(job.id().value()));
        args.addString(brokerId);
        return sql.queryRetryingConflicts(partition.shard(), "UPDATE " + table + JobAcks.BY_ID + " SET state = 0,"
                        + " lease_owner = NULL, lease_expires = NULL, attempts_made = attempts_made - 1, updated_at = ?"
                        + " WHERE id IN (" + ShardSql.placeholders(jobs.size()) + ") AND state = 1 AND lease_owner = ?", args)
                .replaceWithVoid();
    }

    /**
     * Returns up to 1,000 expired leases to PENDING after the retry backoff, or FAILED when attempts are spent.
     * A lease always ends at least {@code minLeaseMs} after the row's last update, so the scan is a range of the
     * {@code by_state_time} index. Emits how many rows it changed.
     */
    Uni<Integer> sweepExpired(long now, RetryPolicy retry, long minLeaseMs) {
        String statement = "UPDATE " + table + " SET state = IF(attempts_made >= attempts_allowed, 3, 0),"
                + " run_after = IF(state = 0, ? + " + retry.sqlDelayAfterAttempts() + ", run_after),"
                + " status = RIGHT(CONCAT_WS('\\n', status, CONCAT('attempt ', attempts_made, ': lease expired')), "
                + JobAcks.MAX_STATUS_CHARS + "),"
                + " dedupe_active = IF(state = 3, NULL, dedupe_active), lease_owner = NULL, lease_expires = NULL,"
                + " updated_at = ? WHERE state = 1 AND updated_at < ? AND lease_expires < ? LIMIT 1000";
        return sql.queryRetryingConflicts(partition.shard(), statement, Tuple.of(now, now, now - minLeaseMs, now))
                .map(rows -> rows.rowCount());
    }

    /** Deletes up to {@code limit} finished jobs last updated before {@code before}; emits how many. */
    Uni<Integer> deleteFinished(long before, int limit) {
        return sql.query(partition.shard(), "DELETE FROM " + table + " WHERE state IN (2, 3) AND updated_at < ? LIMIT ?",
                Tuple.of(before, limit)).map(rows -> rows.rowCount());
    }

    /** Pending jobs and the earliest run_after among them, each priority read from the {@code due} index. */
    Uni<Depth> depth() {
        String statement = "SELECT (SELECT COUNT(*) FROM " + table + " WHERE state = 0) AS pending,"
                + " (SELECT MIN(run_after) FROM " + table + " WHERE state = 0 AND priority = 1) AS p1,"
                + " (SELECT MIN(run_after) FROM " + table + " WHERE state = 0 AND priority = 2) AS p2,"
                + " (SELECT MIN(run_after) FROM " + table + " WHERE state = 0 AND priority = 3) AS p3";
        return sql.query(partition.shard(), statement, Tuple.tuple()).map(rows -> {
            Row row = rows.iterator().next();
            Long earliest = null;
            for (String column : List.of("p1", "p2", "p3")) {
                Long value = row.getLong(column);
                if (value != null && (earliest == null || value < earliest)) {
                    earliest = value;
                }
            }
            return new Depth(row.getLong("pending"), earliest);
        });
    }

    /** The state code of one job, or -1 when it is gone. */
    Uni<Integer> state(long id) {
        return sql.query(partition.shard(), "SELECT state FROM " + table + " WHERE id = ?", Tuple.of(id))
                .map(rows -> rows.size() == 0 ? -1 : rows.iterator().next().getInteger("state"));
    }
}
