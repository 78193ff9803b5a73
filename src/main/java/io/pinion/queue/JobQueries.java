package io.pinion.queue;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.id.PinionId;
import io.pinion.mysql.ShardSql;
import io.pinion.store.Position;
import io.pinion.web.ConflictException;
import io.pinion.web.Cursors;
import io.pinion.web.NotFoundException;
import io.pinion.web.Page;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import io.vertx.mysqlclient.MySQLException;

/**
 * Reading and repairing jobs: lookup by id, scans by state, counts, retry of failed jobs, deletion.
 */
@ApplicationScoped
public class JobQueries {

    private static final String COLUMNS = "id, state, priority, body, attempts_made, attempts_allowed, run_after,"
            + " lease_owner, lease_expires, created_at, updated_at, status, dedupe_key";
    private static final int DUPLICATE_KEY = 1062;

    private final ShardSql sql;
    private final JobLocator locator;
    private final Cursors cursors;

    JobQueries(ShardSql sql, JobLocator locator, Cursors cursors) {
        this.sql = sql;
        this.locator = locator;
        this.cursors = cursors;
    }

    public Uni<Job> get(PinionId id) {
        return locate(id).flatMap(location -> sql.query(location.partition().shard(),
                        "SELECT " + COLUMNS + " FROM " + location.partition().table() + " WHERE id = ?", Tuple.of(id.value()))
                .map(rows -> {
                    if (rows.size() == 0) {
                        throw notFound(id);
                    }
                    return job(rows.iterator().next(), location.queue(), location.partition());
                }));
    }

    /** Jobs of the queue in one state, partition by partition in id order. */
    public Uni<Page<Job>> scan(Queue queue, JobState state, String cursor, int limit) {
        String list = "jobs:" + queue.id() + ":" + state;
        Position from = cursors.decode(list, cursor);
        int partition = from == null ? 0 : (int) from.sequence();
        long after = from == null ? 0 : from.toId();
        return scanFrom(queue, state, partition, after, limit, new ArrayList<>()).map(jobs -> {
            if (jobs.size() <= limit) {
                return new Page<>(jobs, null);
            }
            List<Job> page = jobs.subList(0, limit);
            Job last = page.get(limit - 1);
            return new Page<>(List.copyOf(page), cursors.encode(list, new Position(last.partition(), last.id().value())));
        });
    }

    private Uni<List<Job>> scanFrom(Queue queue, JobState state, int partition, long after, int limit, List<Job> found) {
        if (partition >= queue.partitions().size() || found.size() > limit) {
            return Uni.createFrom().item(found);
        }
        QueuePartition where = queue.partition(partition);
        return sql.query(where.shard(), "SELECT " + COLUMNS + " FROM " + where.table()
                        + " WHERE state = ? AND id > ? ORDER BY id LIMIT ?",
                        Tuple.of(state.code(), after, limit + 1 - found.size()))
                .flatMap(rows -> {
                    rows.forEach(row -> found.add(job(row, queue, where)));
                    return scanFrom(queue, state, partition + 1, 0, limit, found);
                });
    }

    /** Counts per state and the oldest due age, per partition and in total; unreachable partitions are marked. */
    public Uni<QueueStats> stats(Queue queue) {
        long now = System.currentTimeMillis();
        List<Uni<QueueStats.PartitionStats>> parts = queue.partitions().stream().map(partition -> {
            String table = partition.table();
            return sql.query(partition.shard(), "SELECT state, COUNT(*) AS n, MIN(IF(state = 0 AND run_after <= ?, run_after, NULL))"
                            + " AS oldest FROM " + table + " GROUP BY state", Tuple.of(now))
                    .map(rows -> {
                        Map<JobState, Long> counts = emptyCounts();
                        long oldest = Long.MAX_VALUE;
                        for (Row row : rows) {
                            counts.put(JobState.ofCode(row.getInteger("state")), row.getLong("n"));
                            Long due = row.getLong("oldest");
                            if (due != null) {
                                oldest = Math.min(oldest, due);
                            }
                        }
                        return new QueueStats.PartitionStats(partition.partition(), partition.shard(), partition.owner(),
                                true, counts, oldest == Long.MAX_VALUE ? 0 : now - oldest);
                    })
                    .onFailure().recoverWithItem(failure -> new QueueStats.PartitionStats(partition.partition(),
                            partition.shard(), partition.owner(), false, emptyCounts(), 0));
        }).toList();
        return Uni.join().all(parts).andFailFast().map(list -> {
            Map<JobState, Long> total = emptyCounts();
            long oldest = 0;
            for (QueueStats.PartitionStats part : list) {
                part.counts().forEach((state, n) -> total.merge(state, n, Long::sum));
                oldest = Math.max(oldest, part.oldestDueAgeMs());
            }
            return new QueueStats(queue.name(), total, oldest, list);
        });
    }

    /** Puts a FAILED job back to PENDING with fresh attempts; 409 when it is not FAILED or its dedupe key is taken. */
    public Uni<Job> retry(PinionId id) {
        return locate(id).flatMap(location -> {
            long now = System.currentTimeMillis();
            return sql.query(location.partition().shard(), "UPDATE " + location.partition().table() + JobAcks.BY_ID
                            + " SET state = 0, attempts_made = 0, run_after = ?, dedupe_active = dedupe_key, lease_owner = NULL,"
                            + " lease_expires = NULL, updated_at = ? WHERE id = ? AND state = 3", Tuple.of(now, now, id.value()))
                    .onFailure(MySQLException.class).transform(failure -> ((MySQLException) failure).getErrorCode() == DUPLICATE_KEY
                            ? new ConflictException("dedupe_conflict", "another unfinished job holds this job's dedupe key")
                            : failure)
                    .flatMap(rows -> get(id).invoke(job -> {
                        if (rows.rowCount() == 0) {
                            throw new ConflictException("not_failed", "job " + id + " is " + job.state() + ", not FAILED");
                        }
                    }));
        });
    }

    /** Puts up to {@code limit} FAILED jobs of the queue back to PENDING; jobs whose dedupe key is taken stay FAILED. */
    public Uni<Long> retryFailed(Queue queue, int limit) {
        long now = System.currentTimeMillis();
        Uni<Long> total = Uni.createFrom().item(0L);
        for (QueuePartition partition : queue.partitions()) {
            total = total.flatMap(sum -> sum >= limit ? Uni.createFrom().item(sum)
                    : sql.query(partition.shard(), "UPDATE IGNORE " + partition.table()
                                    + " SET state = 0, attempts_made = 0, run_after = ?, dedupe_active = dedupe_key,"
                                    + " updated_at = ? WHERE state = 3 LIMIT ?", Tuple.of(now, now, (int) (limit - sum)))
                            .map(rows -> sum + rows.rowCount()));
        }
        return total;
    }

    /** Deletes the job whatever its state; an ack for it afterwards answers {@code not_found}. */
    public Uni<Void> delete(PinionId id) {
        return locate(id).flatMap(location -> sql.query(location.partition().shard(),
                        "DELETE FROM " + location.partition().table() + " WHERE id = ?", Tuple.of(id.value())))
                .invoke(rows -> {
                    if (rows.rowCount() == 0) {
                        throw notFound(id);
                    }
                })
                .replaceWithVoid();
    }

    private Uni<JobLocator.Location> locate(PinionId id) {
        return locator.locate(id).map(found -> found.orElseThrow(() -> notFound(id)));
    }

    static Job job(Row row, Queue queue, QueuePartition partition) {
        return new Job(PinionId.decode(row.getLong("id")), queue.name(), partition.partition(),
                JobState.ofCode(row.getInteger("state")), row.getInteger("priority"), row.getBuffer("body").getBytes(),
                row.getInteger("attempts_made"), row.getInteger("attempts_allowed"), row.getLong("run_after"),
                row.getString("lease_owner"), row.getLong("lease_expires"), row.getLong("created_at"),
                row.getLong("updated_at"), row.getString("status"), row.getString("dedupe_key"));
    }

    private static Map<JobState, Long> emptyCounts() {
        Map<JobState, Long> counts = new EnumMap<>(JobState.class);
        for (JobState state : JobState.values()) {
            counts.put(state, 0L);
        }
        return counts;
    }

    private static NotFoundException notFound(PinionId id) {
        return new NotFoundException("job_not_found", "no job " + id);
    }
}
