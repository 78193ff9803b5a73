package io.pinion.queue.broker;

import java.util.ArrayList;
import java.util.List;

import io.pinion.id.PinionId;
import io.pinion.mysql.ShardSql;
import io.pinion.queue.JobSql;
import io.pinion.queue.JobState;
import io.pinion.queue.LeasedJob;
import io.pinion.queue.QueuePartition;
import io.pinion.queue.RetryPolicy;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * What the owning broker runs on one partition table (the statements are {@link JobSql}'s): finding due jobs,
 * leasing and releasing them, sweeping expired leases, deleting finished jobs, measuring depth. The ones that can
 * lose a lock conflict are retried.
 */
final class PartitionSql implements PartitionTable {

    private final ShardSql sql;
    private final QueuePartition partition;
    private final String table;
    private final String brokerId;
    /** Set once the table is known to have the lease columns (a table older than them gets them at the first lease). */
    private volatile boolean shaped;

    PartitionSql(ShardSql sql, QueuePartition partition, String brokerId) {
        this.sql = sql;
        this.partition = partition;
        this.table = partition.table();
        this.brokerId = brokerId;
    }

    /** The table has {@code lease_seq} and {@code leased_at} before this broker leases from it. */
    private Uni<Void> shaped() {
        if (shaped) {
            return Uni.createFrom().voidItem();
        }
        return sql.text(partition.shard(), JobSql.addLeaseColumns(table)).invoke(() -> shaped = true).replaceWithVoid();
    }

    /** Whether the table is known to have the lease columns (a lease from it has succeeded). */
    @Override
    public boolean isShaped() {
        return shaped;
    }

    @Override
    public String table() {
        return table;
    }

    /**
     * Up to {@code batch} due ids in hand-out order (priority, run_after, id), read from the covering {@code due}
     * index one priority at a time, so jobs scheduled for later never slow the scan; as many of them as fit in
     * {@code roomBytes} by their bodies' sizes, and always the first.
     */
    @Override
    public Uni<List<Long>> due(int batch, long now, long roomBytes) {
        Tuple args = Tuple.tuple();
        for (int priority = 1; priority <= 3; priority++) {
            args.addInteger(priority).addLong(now).addInteger(batch);
        }
        args.addInteger(batch);
        return sql.query(partition.shard(), JobSql.due(table), args).map(rows -> {
            List<Long> ids = new ArrayList<>(rows.size());
            long bytes = 0;
            for (Row row : rows) {
                Long size = row.getLong("bytes");
                bytes += size == null ? 0 : size;
                if (!ids.isEmpty() && bytes > roomBytes) {
                    break;
                }
                ids.add(row.getLong("id"));
            }
            return ids;
        });
    }

    /** The unfinished rows of a FIFO partition from {@code floor} on, in id order. */
    @Override
    public Uni<List<HeadRow>> head(long floor, int limit) {
        return sql.query(partition.shard(), JobSql.head(table), Tuple.of(floor, limit))
                .map(rows -> {
                    List<HeadRow> head = new ArrayList<>(rows.size());
                    for (Row row : rows) {
                        head.add(new HeadRow(
                                row.getLong("id"),
                                JobState.ofCode(row.getInteger("state")),
                                row.getLong("run_after"),
                                row.getString("lease_owner")));
                    }
                    return head;
                });
    }

    /** Leases the PENDING jobs among {@code ids} to this broker until {@code expires} and reads back those it got. */
    @Override
    public Uni<List<LeasedJob>> lease(List<Long> ids, long now, long expires, String queueName) {
        Tuple update = Tuple.of(brokerId, expires, now, now);
        ids.forEach(update::addLong);
        Tuple select = Tuple.tuple();
        ids.forEach(select::addLong);
        select.addString(brokerId).addLong(expires);
        return shaped().chain(
                        () -> sql.queryRetryingConflicts(partition.shard(), JobSql.lease(table, ids.size()), update))
                .flatMap(ignored -> sql.query(partition.shard(), JobSql.leased(table, ids.size()), select))
                .map(rows -> {
                    List<LeasedJob> jobs = new ArrayList<>(rows.size());
                    for (Row row : rows) {
                        jobs.add(new LeasedJob(
                                PinionId.decode(row.getLong("id")),
                                queueName,
                                partition,
                                row.getInteger("priority"),
                                row.getBuffer("body").getBytes(),
                                row.getInteger("attempts_made"),
                                row.getLong("lease_seq"),
                                row.getInteger("attempts_allowed"),
                                expires,
                                row.getLong("created_at"),
                                row.getLong("run_after")));
                    }
                    return jobs;
                });
    }

    /** Returns buffered (never handed out) jobs to PENDING and refunds the attempt they were charged. */
    @Override
    public Uni<Void> release(List<LeasedJob> jobs) {
        Tuple args = Tuple.of(System.currentTimeMillis());
        jobs.forEach(job -> args.addLong(job.id().value()));
        args.addString(brokerId);
        return sql.queryRetryingConflicts(partition.shard(), JobSql.release(table, jobs.size()), args)
                .replaceWithVoid();
    }

    /**
     * Returns up to 1,000 expired leases to PENDING after the retry backoff, or FAILED when attempts are spent.
     * A lease always ends at least {@code minLeaseMs} after the row's last update, so the scan is a range of the
     * {@code by_state_time} index. Emits how many rows it changed.
     */
    @Override
    public Uni<Integer> sweepExpired(long now, RetryPolicy retry, long minLeaseMs) {
        return sql.queryRetryingConflicts(partition.shard(), JobSql.sweepExpired(table, retry),
                        Tuple.of(now, now, now - minLeaseMs, now))
                .map(rows -> rows.rowCount());
    }

    /** Deletes up to {@code limit} finished jobs last updated before {@code before}; emits how many. */
    @Override
    public Uni<Integer> deleteFinished(long before, int limit) {
        return sql.query(partition.shard(), JobSql.deleteFinished(table), Tuple.of(before, limit))
                .map(rows -> rows.rowCount());
    }

    /** Pending jobs and the earliest run_after among them, each priority read from the {@code due} index. */
    @Override
    public Uni<Depth> depth() {
        return sql.query(partition.shard(), JobSql.depth(table), Tuple.tuple()).map(rows -> {
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

    /** The state of one job, or null when it is gone. */
    @Override
    public Uni<JobState> state(long id) {
        return sql.query(partition.shard(), JobSql.state(table), Tuple.of(id))
                .map(rows -> rows.size() == 0 ? null : JobState.ofCode(rows.iterator().next().getInteger("state")));
    }
}
