package io.pinion.mysql;

import java.time.Duration;
import java.util.function.Function;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.topology.HostPort;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlConnection;

/**
 * Operations on one MySQL server, not on a shard: read-only fencing, replication state, promotion of a replica and
 * pointing a server at a new master by GTID. Each call takes one connection with the operations account
 * ({@code pinion.mysql.ops-user}) from the server's {@link OpsPools pool}, runs its statements in order and gives it
 * back, within {@link #LIMIT}.
 */
@ApplicationScoped
public class MysqlServers {

    /** The longest one operation may take, connection included. */
    static final Duration LIMIT = Duration.ofSeconds(15);

    private final OpsPools pools;
    private final MysqlConfig config;

    MysqlServers(OpsPools pools, MysqlConfig config) {
        this.pools = pools;
        this.config = config;
    }

    /**
     * A replica's replication as {@code SHOW SLAVE STATUS} reports it; null values when the server does not
     * replicate.
     *
     * @param replicating  whether a master is configured at all
     * @param ioRunning    the IO thread's state ({@code Yes}, {@code Connecting}, {@code No})
     * @param sqlRunning   the SQL thread's state
     * @param receivedGtid the GTID position received from the master ({@code Gtid_IO_Pos})
     * @param behindSecs   seconds behind the master, or null when unknown
     */
    public record Replication(boolean replicating, String ioRunning, String sqlRunning, String receivedGtid,
            Long behindSecs) {
    }

    /** Sets or clears {@code read_only}: a read-only server refuses the service account's writes. */
    public Uni<Void> readOnly(HostPort server, boolean on) {
        return on(server, connection -> run(connection, "SET GLOBAL read_only = " + (on ? 1 : 0))).replaceWithVoid();
    }

    public Uni<Replication> replication(HostPort server) {
        return on(server, connection -> run(connection, "SHOW SLAVE STATUS").map(rows -> {
            if (rows.size() == 0) {
                return new Replication(false, null, null, null, null);
            }
            Row row = rows.iterator().next();
            Object behind = row.getValue("Seconds_Behind_Master");
            return new Replication(true, row.getString("Slave_IO_Running"), row.getString("Slave_SQL_Running"),
                    row.getString("Gtid_IO_Pos"), behind == null ? null : Long.valueOf(behind.toString()));
        }));
    }

    /**
     * Waits until both replication threads of the server run ({@code Slave_IO_Running} and {@code Slave_SQL_Running}
     * are {@code Yes}: connected to its master and applying), checking every 100 ms; false when the wait ran out.
     */
    public Uni<Boolean> running(HostPort server, Duration wait) {
        return until(() -> replication(server).map(state -> "Yes".equals(state.ioRunning())
                && "Yes".equals(state.sqlRunning())), System.nanoTime() + wait.toNanos(), Duration.ofMillis(100));
    }

    /** Waits until the server has applied everything up to the GTID position; false when the wait ran out. */
    public Uni<Boolean> applied(HostPort server, String gtid, Duration wait) {
        if (gtid == null || gtid.isBlank()) {
            return Uni.createFrom().item(true);
        }
        return on(server, connection -> connection.preparedQuery("SELECT MASTER_GTID_WAIT(?, ?)")
                .execute(io.vertx.mutiny.sqlclient.Tuple.of(gtid, wait.toMillis() / 1000.0))
                .map(rows -> rows.iterator().next().getInteger(0) == 0));
    }

    /**
     * Waits until the server's {@code gtid_current_pos} covers the position (see {@link GtidState#covers}), checking
     * every 50 ms; false when the wait ran out. Unlike {@code MASTER_GTID_WAIT}, which watches only what the server
     * applied as a replica, this also holds for transactions it wrote itself as a master before.
     */
    public Uni<Boolean> caughtUp(HostPort server, String position, Duration wait) {
        GtidState target = GtidState.parse(position);
        return until(() -> gtids(server).map(gtids -> gtids.position().covers(target)),
                System.nanoTime() + wait.toNanos(), Duration.ofMillis(50));
    }

    /** Asks {@code check} every {@code every} until it answers true or {@code deadline} (System.nanoTime) passes. */
    private static Uni<Boolean> until(java.util.function.Supplier<Uni<Boolean>> check, long deadline, Duration every) {
        return check.get().chain(done -> done || System.nanoTime() > deadline ? Uni.createFrom().item(done)
                : Uni.createFrom().voidItem().onItem().delayIt().by(every).chain(() -> until(check, deadline, every)));
    }

    /** The GTID position of the server's binary log ({@code gtid_binlog_pos}): everything it wrote or logged. */
    public Uni<String> binlogPosition(HostPort server) {
        return on(server, connection -> run(connection, "SELECT @@GLOBAL.gtid_binlog_pos")
                .map(rows -> rows.iterator().next().getString(0)));
    }

    /** The GTID position of everything the server holds ({@code gtid_current_pos}). */
    public Uni<String> position(HostPort server) {
        return on(server, connection -> run(connection, "SELECT @@GLOBAL.gtid_current_pos")
                .map(rows -> rows.iterator().next().getString(0)));
    }

    /**
     * The server's GTIDs: {@code gtid_current_pos} (where it would start replicating from) and
     * {@code gtid_binlog_state} (what its binary log holds), and whether it is read-only.
     *
     * @param position the current position, one GTID per domain
     * @param binlog   the last GTID of each server id in its binary log
     * @param readOnly whether the server refuses the service account's writes
     */
    public record Gtids(GtidState position, GtidState binlog, boolean readOnly) {
    }

    public Uni<Gtids> gtids(HostPort server) {
        return on(server, connection -> run(connection,
                "SELECT @@GLOBAL.gtid_current_pos, @@GLOBAL.gtid_binlog_state, @@GLOBAL.read_only").map(rows -> {
                    Row row = rows.iterator().next();
                    return new Gtids(GtidState.parse(row.getString(0)), GtidState.parse(row.getString(1)),
                            row.getInteger(2) != 0);
                }));
    }

    /**
     * Makes a replica a master in two steps. This one stops its replication and forgets its master, and leaves it
     * read-only; its GTID position. {@link #readOnly} with false then opens it for writes, once the topology names it.
     */
    public Uni<String> detach(HostPort replica) {
        return on(replica, connection -> run(connection, "STOP SLAVE")
                .chain(() -> run(connection, "RESET SLAVE ALL"))
                .chain(() -> run(connection, "SELECT @@GLOBAL.gtid_current_pos"))
                .map(rows -> rows.iterator().next().getString(0)));
    }

    /**
     * Makes the server a read-only replica of {@code master}, from everything it already holds
     * ({@code MASTER_USE_GTID = current_pos}). A server that holds transactions the master does not (an old master
     * that lost writes in a crash) stops with a replication error, which {@link #replication} shows.
     */
    public Uni<Void> follow(HostPort server, HostPort master) {
        String change = "CHANGE MASTER TO MASTER_HOST = " + quoted(master.host()) + ", MASTER_PORT = " + master.port()
                + ", MASTER_USER = " + quoted(config.replicationUser()) + ", MASTER_PASSWORD = "
                + quoted(config.replicationPassword()) + ", MASTER_USE_GTID = current_pos, MASTER_CONNECT_RETRY = 1";
        return on(server, connection -> run(connection, "SET GLOBAL read_only = 1")
                .chain(() -> run(connection, "STOP SLAVE"))
                .chain(() -> run(connection, change))
                .chain(() -> run(connection, "START SLAVE")))
                .replaceWithVoid();
    }

    private <T> Uni<T> on(HostPort server, Function<SqlConnection, Uni<T>> work) {
        return pools.of(server).withConnection(work).ifNoItem().after(LIMIT).fail();
    }

    private static Uni<RowSet<Row>> run(SqlConnection connection, String statement) {
        return connection.query(statement).execute();
    }

    private static String quoted(String value) {
        return "'" + value.replace("\\", "\\\\").replace("'", "''") + "'";
    }
}
