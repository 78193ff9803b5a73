package io.pinion.mysql;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.breaker.Breaker;
import io.pinion.breaker.BreakerEvidence;
import io.pinion.breaker.Breakers;
import io.pinion.failure.HostBusy;
import io.pinion.failure.Outages;
import io.pinion.failure.Overloaded;
import io.pinion.failure.Unavailable;
import io.pinion.topology.ActiveTopology;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.ConnectionPoolTooBusyException;
import io.vertx.mysqlclient.MySQLException;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * How repositories run SQL on a shard: routed to the shard's host, counted per request, bounded by the query
 * timeout, behind the host's breaker, and failing with a 503 {@link Unavailable} naming the shard
 * when its host is down or hung.
 */
@ApplicationScoped
public class ShardSql {

    private final MysqlPools pools;
    private final ActiveTopology topology;
    private final MysqlConfig config;
    private final Breakers breakers;
    private final SchemaGate schema;
    private final Map<SqlConnection, List<Runnable>> afterTransaction = new ConcurrentHashMap<>();
    private final HostAnswers answers = new HostAnswers();

    ShardSql(MysqlPools pools, ActiveTopology topology, MysqlConfig config, Breakers breakers, SchemaGate schema) {
        this.pools = pools;
        this.schema = schema;
        this.topology = topology;
        this.config = config;
        this.breakers = breakers;
    }

    /** One prepared statement on the shard's host. */
    public Uni<RowSet<Row>> query(int shard, String sql, Tuple args) {
        Pool pool = pools.forShard(shard);
        return guard(shard, pool, pool.preparedQuery(sql).execute(args)
                .onSubscription().invoke(QueryCount::increment));
    }

    /**
     * A statement that may lose a lock conflict (InnoDB deadlock 1213, lock wait timeout 1205): run again up to
     * three times after a short random pause. Only for statements whose WHERE clause makes a repeat harmless.
     */
    public Uni<RowSet<Row>> queryRetryingConflicts(int shard, String sql, Tuple args) {
        return retryingConflicts(Uni.createFrom().deferred(() -> query(shard, sql, args)));
    }

    /** Subscribes again, up to three times after a short random pause, while the work loses a lock conflict. */
    private static <T> Uni<T> retryingConflicts(Uni<T> work) {
        return work.onFailure(ShardSql::lockConflict).retry()
                .withBackOff(Duration.ofMillis(5), Duration.ofMillis(50)).withJitter(0.5)
                .atMost(3);
    }

    private static boolean lockConflict(Throwable failure) {
        return failure instanceof io.vertx.mysqlclient.MySQLException mysql
                && (mysql.getErrorCode() == 1213 || mysql.getErrorCode() == 1205);
    }

    /**
     * The name of the host that holds the shard now; statements may combine shards that share it
     * ({@link HostStatements}). A shard the topology does not place is a host of its own.
     */
    public String hostOf(int shard) {
        return topology.get().mysql().hostOf(shard).map(named -> named.name()).orElse("shard " + shard);
    }

    /** A statement without parameters (DDL), sent as text rather than prepared. */
    public Uni<RowSet<Row>> text(int shard, String sql) {
        Pool pool = pools.forShard(shard);
        return guard(shard, pool, pool.query(sql).execute()
                .onSubscription().invoke(QueryCount::increment));
    }

    /**
     * A read across several shards of one host ({@link HostStatements}), sent as text: its shape changes with every
     * set of shards, which would only churn the prepared-statement cache, so its values are numbers the caller
     * writes in, never input taken as text. Fails with a 503 when the shards are no longer on one host (one moved
     * while the statement was built).
     */
    public Uni<RowSet<Row>> textOnHost(Collection<Integer> shards, String sql) {
        int first = shards.iterator().next();
        Pool pool = pools.forShard(first);
        for (int shard : shards) {
            if (pools.forShard(shard) != pool) {
                return Uni.createFrom().failure(new Unavailable("mysql host for shard " + shard,
                        new IllegalStateException("the shard moved to another host while its read was built")));
            }
        }
        return guard(first, pool, pool.query(sql).execute()
                .onSubscription().invoke(QueryCount::increment));
    }

    /** Several statements on one connection in one transaction; rolled back when {@code work} fails. */
    public <T> Uni<T> inTransaction(int shard, Function<SqlConnection, Uni<T>> work) {
        return inTransaction(shard, config.queryTimeout(), work);
    }

    /**
     * A transaction that may lose a lock conflict (InnoDB deadlock 1213, lock wait timeout 1205): rolled back and run
     * again from the start up to three times after a short random pause. Only for work whose repeat is harmless once
     * rolled back.
     */
    public <T> Uni<T> inTransactionRetryingConflicts(int shard, Function<SqlConnection, Uni<T>> work) {
        return retryingConflicts(Uni.createFrom().deferred(() -> inTransaction(shard, work)));
    }

    /** Like {@link #inTransaction(int, Function)} with a longer time limit, for bulk statements. */
    public <T> Uni<T> inTransaction(int shard, Duration timeout, Function<SqlConnection, Uni<T>> work) {
        Pool pool = pools.forShard(shard);
        AtomicReference<SqlConnection> used = new AtomicReference<>();
        Uni<T> transaction = pool.withTransaction(connection -> {
            used.set(connection);
            return work.apply(connection);
        }).onTermination().invoke(() -> ended(used.get()));
        return guard(shard, pool, transaction, timeout);
    }

    /**
     * Runs {@code action} once the transaction on {@code connection} has ended: committed, rolled back, or given up
     * on with its outcome unknown (a timeout). Actions that must follow every commit, such as cache invalidations,
     * therefore also run when nothing was committed, which is harmless for them.
     */
    public void afterTransaction(SqlConnection connection, Runnable action) {
        afterTransaction.computeIfAbsent(connection, key -> new ArrayList<>(2)).add(action);
    }

    private void ended(SqlConnection connection) {
        List<Runnable> actions = connection == null ? null : afterTransaction.remove(connection);
        if (actions != null) {
            actions.forEach(Runnable::run);
        }
    }

    /** A statement inside {@link #inTransaction}. */
    public Uni<RowSet<Row>> execute(SqlConnection connection, String sql, Tuple args) {
        return connection.preparedQuery(sql).execute(args)
                .onSubscription().invoke(QueryCount::increment);
    }

    /** {@code ?,?,…} for an {@code IN (…)} list of {@code count} parameters. */
    public static String placeholders(int count) {
        return String.join(",", java.util.Collections.nCopies(count, "?"));
    }

    /** {@code (?,?),(?,?),…}: the VALUES list of a multi-row INSERT of {@code rows} rows of {@code columns} columns. */
    public static String rows(int rows, int columns) {
        return String.join(",", java.util.Collections.nCopies(rows, "(" + placeholders(columns) + ")"));
    }

    /** The AUTO_INCREMENT value (or {@code LAST_INSERT_ID(expr)}) a statement produced. */
    public static long lastInsertId(RowSet<Row> rows) {
        return ((io.vertx.sqlclient.RowSet<?>) rows.getDelegate())
                .property(io.vertx.mysqlclient.MySQLClient.LAST_INSERTED_ID);
    }

    private <T> Uni<T> guard(int shard, Pool pool, Uni<T> work) {
        return guard(shard, pool, work, config.queryTimeout());
    }

    /**
     * Bounds the work by the timeout and puts it behind the host's breaker: once the host was seen down (a connection
     * refused, or several statements in a row without an answer: {@link Breaker}), requests that need it fail at once
     * with a 503 until a trial call finds it back. A pool whose wait queue is full is the service's own overload, a
     * 503 {@code overloaded} that says nothing of the host; so is a statement past its deadline on a host that
     * answered other statements meanwhile ({@link HostBusy}: it waited behind them in the pool or on the server, the
     * host is busy, not hung), which never counts against the breaker. A failure on a pool closed by a topology
     * change is a 503 too: the host was taken away mid-statement. So is a statement for a host whose schema is not
     * known to be current yet ({@link SchemaGate}).
     */
    private <T> Uni<T> guard(int shard, Pool pool, Uni<T> work, Duration timeout) {
        String role = "mysql host for shard " + shard;
        String host = topology.get().mysql().hostOf(shard).map(named -> named.name()).orElse("mysql");
        if (!schema.open(host)) {
            return Uni.createFrom().failure(() -> new Unavailable(role,
                    new IllegalStateException(host + " could not be reached at start-up and is not migrated yet")));
        }
        Breaker breaker = breakers.forBackend(host);
        AtomicLong started = new AtomicLong(System.nanoTime());
        return breaker.call(() -> work
                        .onSubscription().invoke(subscription -> started.set(System.nanoTime()))
                        .onItemOrFailure().invoke((item, failure) -> {
                            if (failure == null || failure instanceof MySQLException) {
                                answers.answered(host);
                            }
                        })
                        .ifNoItem().after(timeout)
                        .failWith(() -> timedOut(role, host, started.get(), timeout))
                        .onFailure(ConnectionPoolTooBusyException.class)
                        .transform(busy -> new Overloaded(role + " has too many statements waiting; retry shortly"))
                        .onFailure(failure -> !(failure instanceof Unavailable) && !(failure instanceof Overloaded)
                                && (Outages.isUnavailable(failure) || pools.retired(pool)))
                        .transform(failure -> new Unavailable(role, failure)),
                failure -> failure instanceof Unavailable ? BreakerEvidence.of(failure) : Breaker.Evidence.NONE,
                () -> new Unavailable(role, null));
    }

    /**
     * A statement past its deadline: {@link HostBusy} when the host answered others since it was sent, else
     * {@link Unavailable}; the timeout is the cause of both (whether it ran is unknown).
     */
    private Throwable timedOut(String role, String host, long started, Duration timeout) {
        TimeoutException noAnswer = new TimeoutException("no answer within " + timeout.toMillis() + " ms");
        return answers.answeredSince(host, started) ? new HostBusy(role, noAnswer) : new Unavailable(role, noAnswer);
    }
}
