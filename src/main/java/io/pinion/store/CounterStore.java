package io.pinion.store;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.id.PinionId;
import io.pinion.mysql.ShardDatabase;
import io.pinion.mysql.ShardSql;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * Exact per-object counters (likes, saves, pins…), kept on the object's shard and changed in the same
 * transaction as the mapping row they count, so they never drift. Read together with the object by
 * {@link ObjectStore}.
 */
@ApplicationScoped
public class CounterStore {

    private static final String ADD = """
            INSERT INTO %s (object_id, name, value) VALUES (?, ?, ?)
            ON DUPLICATE KEY UPDATE value = value + VALUES(value)""";

    private final ShardSql sql;

    CounterStore(ShardSql sql) {
        this.sql = sql;
    }

    public Uni<Void> add(SqlConnection tx, PinionId id, String name, long delta) {
        return sql.execute(tx, ADD.formatted(ShardDatabase.table(id.shard(), "counters")),
                Tuple.of(id.value(), name, delta))
                .replaceWithVoid();
    }
}
