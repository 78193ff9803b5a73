package io.pinion.mysql;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.IntStream;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.pinion.stack.StackTest;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;

/**
 * Start-up creates every logical shard database on the host the topology places it on, each with its
 * schema-version row, and running the migrator again changes nothing.
 */
@QuarkusTest
@StackTest
class ShardSchemaTest {

    private static final Duration WAIT = Duration.ofSeconds(60);

    @Inject
    MysqlPools pools;
    @Inject
    ShardSchemaMigrator migrator;

    @Test
    void everyShardDatabaseExistsOnItsHostOnly() {
        assertEquals(names(0, 31), shardDatabasesOn("mysql-1"));
        assertEquals(names(32, 63), shardDatabasesOn("mysql-2"));
    }

    @Test
    void everyShardDatabaseIsAtTheLatestVersion() {
        Map<String, String> versions = versionsOn("mysql-1");
        versions.putAll(versionsOn("mysql-2"));
        assertEquals(64, versions.size());
        String latest = ShardMigrations.latestVersion() + "";
        versions.forEach((db, version) -> assertEquals(latest, version.split("@")[0], db));
    }

    @Test
    void migratingAgainChangesNothing() {
        Map<String, String> before = versionsOn("mysql-1");
        before.putAll(versionsOn("mysql-2"));

        MigrationReport report = migrator.migrateAll().await().atMost(WAIT);

        assertEquals(64, report.databases());
        assertEquals(0, report.applied());
        Map<String, String> after = versionsOn("mysql-1");
        after.putAll(versionsOn("mysql-2"));
        assertEquals(before, after, "versions and applied_at times are unchanged");
    }

    private List<String> shardDatabasesOn(String host) {
        return pools.forHost(host)
                .query("SELECT SCHEMA_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME REGEXP '^db[0-9]{5}$'"
                        + " ORDER BY SCHEMA_NAME")
                .execute()
                .map(rows -> {
                    List<String> names = new ArrayList<>();
                    rows.forEach(row -> names.add(row.getString(0)));
                    return names;
                })
                .await()
                .atMost(WAIT);
    }

    /** database → "version@applied_at" of every shard database on the host. */
    private Map<String, String> versionsOn(String host) {
        Pool pool = pools.forHost(host);
        Map<String, String> versions = new TreeMap<>();
        for (String db : shardDatabasesOn(host)) {
            int shard = Integer.parseInt(db.substring(2));
            pool.query("SELECT version, applied_at FROM " + ShardDatabase.table(shard, "schema_version")
                            + " ORDER BY version")
                    .execute()
                    .await()
                    .atMost(WAIT)
                    .forEach(row -> versions.merge(
                            db, row.getInteger("version") + "@" + row.getLocalDateTime("applied_at"), (a, b) -> b));
        }
        return versions;
    }

    private static List<String> names(int from, int to) {
        return IntStream.rangeClosed(from, to).mapToObj(ShardDatabase::name).toList();
    }
}
