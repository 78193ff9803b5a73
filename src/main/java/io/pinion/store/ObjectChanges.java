package io.pinion.store;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.id.PinionId;
import io.pinion.mysql.ShardSql;
import io.vertx.mutiny.sqlclient.SqlConnection;

/**
 * The objects a transaction changed (their row or a counter), invalidated in every instance's cache once the
 * transaction has ended: one message per transaction.
 */
@ApplicationScoped
public class ObjectChanges {

    private final ShardSql sql;
    private final CacheChannel channel;
    private final Map<SqlConnection, Set<Long>> open = new ConcurrentHashMap<>();

    ObjectChanges(ShardSql sql, CacheChannel channel) {
        this.sql = sql;
        this.channel = channel;
    }

    /** Records that the transaction on {@code tx} changes the object. */
    public void changed(SqlConnection tx, PinionId id) {
        Set<Long> ids = open.get(tx);
        if (ids == null) {
            ids = new HashSet<>();
            open.put(tx, ids);
            sql.afterTransaction(tx, () -> {
                Set<Long> changed = open.remove(tx);
                if (changed != null) {
                    channel.changed(changed);
                }
            });
        }
        ids.add(id.value());
    }
}
