package io.pinion.queue;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.mysql.ShardSql;
import io.smallrye.mutiny.Uni;

/** Creates and drops partition tables (their shape is {@link JobSql#create}'s). */
@ApplicationScoped
public class JobTables {

    private final ShardSql sql;
    private final JobIds ids;

    JobTables(ShardSql sql, JobIds ids) {
        this.sql = sql;
        this.ids = ids;
    }

    public Uni<Void> create(QueuePartition partition) {
        return sql.text(partition.shard(), JobSql.create(partition.table())).replaceWithVoid();
    }

    /** Drops the table and forgets its id blocks. */
    public Uni<Void> drop(QueuePartition partition) {
        return sql.text(partition.shard(), JobSql.drop(partition.table()))
                .flatMap(ignored -> ids.forget(partition));
    }
}
