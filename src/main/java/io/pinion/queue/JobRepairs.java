package io.pinion.queue;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.failure.Conflict;
import io.pinion.id.PinionId;
import io.pinion.mysql.ShardSql;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Tuple;
import io.vertx.mysqlclient.MySQLException;

/**
 * Repairs an operator makes: failed jobs put back to PENDING with fresh attempts, one at a time or in bulk, and
 * jobs deleted whatever their state.
 */
@ApplicationScoped
public class JobRepairs {

    private static final int DUPLICATE_KEY = 1062;

    private final ShardSql sql;
    private final JobQueries queries;

    JobRepairs(ShardSql sql, JobQueries queries) {
        this.sql = sql;
        this.queries = queries;
    }

    /** Puts a FAILED job back to PENDING with fresh attempts; 409 when it is not FAILED or its dedupe key is taken. */
    public Uni<Job> retry(PinionId id) {
        return queries.locate(id).flatMap(location -> {
            long now = System.currentTimeMillis();
            return sql.query(
                            location.partition().shard(),
                            JobSql.retry(location.partition().table()),
                            Tuple.of(now, now, id.value()))
                    .onFailure(MySQLException.class)
                    .transform(failure -> ((MySQLException) failure).getErrorCode() == DUPLICATE_KEY
                            ? new Conflict("dedupe_conflict", "another unfinished job holds this job's dedupe key")
                            : failure)
                    .flatMap(rows -> queries.get(id).invoke(job -> {
                        if (rows.rowCount() == 0) {
                            throw new Conflict("not_failed", "job " + id + " is " + job.state() + ", not FAILED");
                        }
                    }));
        });
    }

    /**
     * Puts up to {@code limit} FAILED jobs of the queue back to PENDING; jobs whose dedupe key is taken stay FAILED.
     */
    public Uni<Long> retryFailed(Queue queue, int limit) {
        long now = System.currentTimeMillis();
        Uni<Long> total = Uni.createFrom().item(0L);
        for (QueuePartition partition : queue.partitions()) {
            total = total.flatMap(sum -> sum >= limit ? Uni.createFrom().item(sum)
                    : sql.query(partition.shard(), JobSql.retryFailed(partition.table()),
                                    Tuple.of(now, now, (int) (limit - sum)))
                            .map(rows -> sum + rows.rowCount()));
        }
        return total;
    }

    /** Deletes the job whatever its state; an ack for it afterwards answers {@code not_found}. */
    public Uni<Void> delete(PinionId id) {
        return queries.locate(id).flatMap(location -> sql.query(location.partition().shard(),
                        JobSql.delete(location.partition().table()), Tuple.of(id.value())))
                .invoke(rows -> {
                    if (rows.rowCount() == 0) {
                        throw JobQueries.notFound(id);
                    }
                })
                .replaceWithVoid();
    }
}
