package io.pinion.mysql;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.quarkus.runtime.StartupEvent;

/**
 * Brings every shard database to the latest schema before the service takes traffic. A host that cannot be
 * reached fails the start, loudly: serving with a half-migrated fleet would be worse.
 */
@Singleton
public class MigrateOnStart {

    private static final Logger LOG = Logger.getLogger(MigrateOnStart.class);

    void migrate(@Observes StartupEvent start, MysqlConfig config, ShardSchemaMigrator migrator) {
        if (!config.migrateAtStart()) {
            LOG.info("shard schema migration at start is disabled (pinion.mysql.migrate-at-start=false)");
            return;
        }
        MigrationReport report = migrator.migrateAll().await().atMost(config.migrationTimeout());
        LOG.infof("shard schema: %d databases at version %d, %d migrations applied, %d ms",
                report.databases(), report.latestVersion(), report.applied(), report.millis());
    }
}
