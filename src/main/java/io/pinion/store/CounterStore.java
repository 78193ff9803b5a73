package io.pinion.store;

import java.util.List;

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
    private final ObjectChanges changes;

    CounterStore(ShardSql sql, ObjectChanges changes) {
        this.sql = sql;
        this.changes = changes;
    }

    /** One counter change for {@link #addAll}. */
    public record Delta(PinionId id, String name, long delta) {
    }

    /** Applies many counter changes of objects on one shard with one statement (bulk loads). */
    public Uni<Void> addAll(SqlConnection tx, int shard, List<Delta> deltas) {
        if (deltas.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        String text = "INSERT INTO " + ShardDatabase.table(shard, "counters") + " (object_id, name, value) VALUES "
                + ShardSql.rows(deltas.size(), 3)
                + " ON DUPLICATE KEY UPDATE value = value + VALUES(value)";
        Tuple args = Tuple.tuple();
        for (Delta delta : deltas) {
            changes.changed(tx, delta.id());
            args.addLong(delta.id().value()).addString(delta.name()).addLong(delta.delta());
        }
        return sql.execute(tx, text, args).replaceWithVoid();
    }

    public Uni<Void> add(SqlConnection tx, PinionId id, String name, long delta) {
        changes.changed(tx, id);
        return sql.execute(tx, ADD.formatted(ShardDatabase.table(id.shard(), "counters")),
                Tuple.of(id.value(), name, delta))
                .replaceWithVoid();
    }
}
