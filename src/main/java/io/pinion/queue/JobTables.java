package io.pinion.queue;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.mysql.ShardDatabase;
import io.pinion.mysql.ShardSql;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * Creates and drops partition tables. A job row carries its whole life: state, priority, schedule, attempts,
 * lease, body, custom status and an optional dedupe key that is unique only while the job is not finished
 * ({@code dedupe_active} is cleared when it finishes; NULLs never collide).
 *
 * <p>Indexes: {@code due} serves the owner's prefetch (priority, then run_after, then id); {@code by_state_time}
 * serves both the expired-lease sweep (a lease always ends at least a second after the row's last update, so
 * expired leases are among the RUNNING rows not updated in the last second) and the retention GC of finished
 * jobs. Every index costs CPU on each enqueue and state change, so there are no others.
 */
@ApplicationScoped
public class JobTables {

    private static final String CREATE = """
            CREATE TABLE IF NOT EXISTS %s (
              id BIGINT NOT NULL PRIMARY KEY,
              state TINYINT NOT NULL,
              priority TINYINT NOT NULL,
              run_after BIGINT NOT NULL,
              attempts_made INT NOT NULL DEFAULT 0,
              attempts_allowed INT NOT NULL,
              lease_owner VARCHAR(64) NULL,
              lease_expires BIGINT NULL,
              body MEDIUMBLOB NOT NULL,
              status TEXT NULL,
              dedupe_key VARCHAR(191) NULL,
              dedupe_active VARCHAR(191) NULL,
              created_at BIGINT NOT NULL,
              updated_at BIGINT NOT NULL,
              UNIQUE KEY dedupe (dedupe_active),
              KEY due (state, priority, run_after, id),
              KEY by_state_time (state, updated_at)
            ) ENGINE=InnoDB""";

    private final ShardSql sql;

    JobTables(ShardSql sql) {
        this.sql = sql;
    }

    public Uni<Void> create(QueuePartition partition) {
        return sql.text(partition.shard(), CREATE.formatted(partition.table())).replaceWithVoid();
    }

    /** Drops the table and forgets its id blocks. */
    public Uni<Void> drop(QueuePartition partition) {
        return sql.text(partition.shard(), "DROP TABLE IF EXISTS " + partition.table())
                .flatMap(ignored -> sql.query(partition.shard(), "DELETE FROM "
                        + ShardDatabase.table(partition.shard(), "job_blocks") + " WHERE queue_id = ? AND partition_no = ?",
                        Tuple.of(partition.queueId(), partition.partition())))
                .replaceWithVoid();
    }
}
