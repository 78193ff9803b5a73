package io.pinion.mysql;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.pinion.topology.ActiveTopology;
import io.pinion.topology.MysqlHost;
import io.pinion.topology.MysqlTopology;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * Creates every logical shard database on its host and brings it to the latest {@link ShardMigrations} version.
 * Idempotent: a database already current is only read. Safe with several instances starting at once: each shard
 * is migrated under a MySQL named lock.
 */
@ApplicationScoped
public class ShardSchemaMigrator {

    private static final Logger LOG = Logger.getLogger(ShardSchemaMigrator.class);

    private static final String LOCK = "SELECT GET_LOCK(?, 60)";
    private static final String UNLOCK = "SELECT RELEASE_LOCK(?)";
    private static final String CREATE_DATABASE =
            "CREATE DATABASE IF NOT EXISTS %s CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci";
    private static final String CREATE_VERSION_TABLE = """
        CREATE TABLE IF NOT EXISTS %s (
          version INT NOT NULL PRIMARY KEY,
          description VARCHAR(200) NOT NULL,
          checksum CHAR(64) NOT NULL,
          applied_at TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3)
        ) ENGINE=InnoDB\
        """;
    private static final String APPLIED = "SELECT version, checksum FROM %s";
    private static final String RECORD = "INSERT INTO %s (version, description, checksum) VALUES (?, ?, ?)";

    private final ActiveTopology topology;
    private final MysqlPools pools;
    private final MysqlConfig config;

    ShardSchemaMigrator(ActiveTopology topology, MysqlPools pools, MysqlConfig config) {
        this.topology = topology;
        this.pools = pools;
        this.config = config;
    }

    /** Migrates every shard database of the current topology; hosts in parallel, a few shards at a time per host. */
    public Uni<MigrationReport> migrateAll() {
        long start = System.currentTimeMillis();
        MysqlTopology mysql = topology.get().mysql();
        List<Uni<MigrationReport>> hosts = mysql.hosts().stream()
                .map(host -> migrateHost(host, mysql.shardsOf(host)))
                .toList();
        return Uni.join().all(hosts).andFailFast()
                .map(reports -> reports.stream()
                        .reduce(new MigrationReport(0, 0, ShardMigrations.latestVersion(), 0), MigrationReport::plus))
                .map(total -> new MigrationReport(total.databases(), total.applied(), total.latestVersion(),
                        System.currentTimeMillis() - start));
    }

    /**
     * Fails, as the host being unavailable, unless the named host answers a statement within {@code timeout}: a
     * server that accepts connections but hangs (stopped, frozen) would otherwise hold a migration up indefinitely.
     */
    public Uni<Void> reach(String hostName, Duration timeout) {
        return pools.forHost(hostName).query("SELECT 1").execute()
                .ifNoItem().after(timeout).fail()
                .replaceWithVoid();
    }

    /** Migrates every shard database the current topology places on the named host. */
    public Uni<MigrationReport> migrateHost(String hostName) {
        return Uni.createFrom().deferred(() -> {
            long start = System.currentTimeMillis();
            MysqlTopology mysql = topology.get().mysql();
            MysqlHost host = mysql.hosts().stream().filter(candidate -> candidate.name().equals(hostName)).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("no MySQL host named " + hostName));
            return migrateHost(host, mysql.shardsOf(host))
                    .map(report -> new MigrationReport(report.databases(), report.applied(), report.latestVersion(),
                            System.currentTimeMillis() - start));
        });
    }

    private Uni<MigrationReport> migrateHost(MysqlHost host, int[] shards) {
        Pool pool = pools.forHost(host.name());
        return Multi.createFrom().iterable(IntStream.of(shards).boxed().toList())
                .onItem().transformToUni(shard -> pool.withConnection(connection -> migrateShard(connection, shard)))
                .merge(config.migrationConcurrency())
                .collect().with(Collectors.summingInt(Integer::intValue))
                .map(applied -> new MigrationReport(shards.length, applied, ShardMigrations.latestVersion(), 0))
                .invoke(report -> LOG.debugf("%s: %d shard databases, %d migrations applied",
                        host.name(), report.databases(), report.applied()));
    }

    /** Brings one shard database up to date on a single connection; emits how many migrations it applied. */
    Uni<Integer> migrateShard(SqlConnection connection, int shard) {
        String lock = "pinion.migrate." + ShardDatabase.name(shard);
        String versionTable = ShardDatabase.table(shard, "schema_version");
        return connection
                .preparedQuery(LOCK)
                .execute(Tuple.of(lock))
                .invoke(rows -> requireLock(rows.iterator().next(), lock))
                .flatMap(ignored -> connection
                        .query(CREATE_DATABASE.formatted("`" + ShardDatabase.name(shard) + "`"))
                        .execute())
                .flatMap(ignored -> connection
                        .query(CREATE_VERSION_TABLE.formatted(versionTable))
                        .execute())
                .flatMap(ignored ->
                        connection.query(APPLIED.formatted(versionTable)).execute())
                .map(rows -> {
                    Map<Integer, String> applied = new HashMap<>();
                    rows.forEach(row -> applied.put(row.getInteger("version"), row.getString("checksum")));
                    return pending(shard, applied);
                })
                .flatMap(pending ->
                        applyInOrder(connection, shard, versionTable, pending).replaceWith(pending.size()))
                .onTermination()
                .call(() -> connection
                        .preparedQuery(UNLOCK)
                        .execute(Tuple.of(lock))
                        .onFailure()
                        .recoverWithNull());
    }

    private static List<ShardMigration> pending(int shard, Map<Integer, String> applied) {
        for (ShardMigration migration : ShardMigrations.ALL) {
            String checksum = applied.get(migration.version());
            if (checksum != null && !checksum.equals(migration.checksum())) {
                throw new IllegalStateException(ShardDatabase.name(shard) + ": migration " + migration.version()
                        + " was changed after it was applied (checksum differs)");
            }
        }
        return ShardMigrations.ALL.stream()
                .filter(migration -> !applied.containsKey(migration.version()))
                .toList();
    }

    private Uni<Void> applyInOrder(SqlConnection connection, int shard, String versionTable,
            List<ShardMigration> pending) {
        Uni<Void> chain = Uni.createFrom().voidItem();
        for (ShardMigration migration : pending) {
            for (String statement : migration.statementsFor(shard)) {
                chain = chain.flatMap(ignored -> connection.query(statement).execute().replaceWithVoid());
            }
            chain = chain
                    .flatMap(ignored -> connection.preparedQuery(RECORD.formatted(versionTable))
                            .execute(Tuple.of(migration.version(), migration.description(), migration.checksum())))
                    .invoke(ignored -> LOG.debugf("%s: applied migration %d (%s)", ShardDatabase.name(shard),
                            migration.version(), migration.description()))
                    .replaceWithVoid();
        }
        return chain;
    }

    private static void requireLock(Row row, String lock) {
        Long got = row.getLong(0);
        if (got == null || got != 1L) {
            throw new IllegalStateException("could not take migration lock " + lock + " within 60 s");
        }
    }
}
