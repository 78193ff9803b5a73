package io.pinion.users;

import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.id.PinionId;
import io.pinion.mysql.ShardDatabase;
import io.pinion.mysql.ShardSql;
import io.pinion.topology.ActiveTopology;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * The username lookup table (one row per name, on the shard the name hashes to) and the removal of a user row
 * whose name turned out to be taken.
 */
@ApplicationScoped
public class UserRepository {

    private static final String CLAIM = "INSERT IGNORE INTO %s (username, user_id) VALUES (?, ?)";
    private static final String LOOKUP = "SELECT user_id FROM %s WHERE username = ?";
    private static final String DELETE_USER = "DELETE FROM %s WHERE local_id = ?";

    private final ShardSql sql;
    private final ActiveTopology topology;

    UserRepository(ShardSql sql, ActiveTopology topology) {
        this.sql = sql;
        this.topology = topology;
    }

    /** Records the name for the user; emits false when another user has it. */
    public Uni<Boolean> claimUsername(String username, PinionId userId) {
        int shard = shardOf(username);
        return sql.query(
                        shard,
                        CLAIM.formatted(ShardDatabase.table(shard, "usernames")),
                        Tuple.of(username, userId.value()))
                .map(rows -> rows.rowCount() == 1);
    }

    /**
     * Records many names, all placed on {@code shard} (see {@link #shardOf}), with one statement (bulk loads); emits
     * how many were new. Names already taken keep their user.
     */
    public Uni<Integer> claimAll(SqlConnection tx, int shard, Map<String, PinionId> names) {
        if (names.isEmpty()) {
            return Uni.createFrom().item(0);
        }
        String text = "INSERT IGNORE INTO " + ShardDatabase.table(shard, "usernames") + " (username, user_id) VALUES "
                + ShardSql.rows(names.size(), 2);
        Tuple args = Tuple.tuple();
        names.forEach((name, id) -> args.addString(name).addLong(id.value()));
        return sql.execute(tx, text, args).map(rows -> rows.rowCount());
    }

    /** The id of the user with this name, or null. */
    public Uni<PinionId> findIdByUsername(String username) {
        int shard = shardOf(username);
        return sql.query(shard, LOOKUP.formatted(ShardDatabase.table(shard, "usernames")), Tuple.of(username))
                .map(rows -> rows.size() == 0 ? null : PinionId.decode(rows.iterator().next().getLong(0)));
    }

    /** Removes a user row that never became reachable (its name was taken). */
    public Uni<Void> deleteUnclaimed(PinionId userId) {
        return sql.query(userId.shard(), DELETE_USER.formatted(ShardDatabase.table(userId.shard(), "users")),
                Tuple.of(userId.local()))
                .replaceWithVoid();
    }

    public int shardOf(String username) {
        return UsernamePlacement.shardOf(username, topology.get().mysql().shardCount());
    }
}
