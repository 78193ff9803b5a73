package io.pinion.mysql;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;

import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import jakarta.interceptor.Interceptor;

import org.jboss.logging.Logger;

import io.pinion.failure.Outages;
import io.pinion.topology.ActiveTopology;
import io.pinion.topology.MysqlHost;
import io.pinion.topology.Topology;
import io.pinion.topology.TopologyChanged;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;

/**
 * Brings every shard database to the latest schema before the service takes traffic. A host that cannot be reached
 * does not stop the start: the other hosts serve, and its shards answer 503 ({@link SchemaGate}) until it is reached
 * and migrated, tried again every {@code pinion.mysql.migration-retry-interval}. Any other migration failure (a
 * migration edited after it was applied, a statement MySQL refuses) fails the start, loudly.
 */
@Singleton
public class MigrateOnStart {

    private static final Logger LOG = Logger.getLogger(MigrateOnStart.class);

    private final MysqlConfig config;
    private final ShardSchemaMigrator migrator;
    private final SchemaGate gate;
    private final ActiveTopology topology;
    private final Vertx vertx;
    private final AtomicBoolean retrying = new AtomicBoolean();

    MigrateOnStart(MysqlConfig config, ShardSchemaMigrator migrator, SchemaGate gate, ActiveTopology topology,
            Vertx vertx) {
        this.config = config;
        this.migrator = migrator;
        this.gate = gate;
        this.topology = topology;
        this.vertx = vertx;
    }

    /** Runs before the other start-up observers: the seed and operator commands use the shards it opens. */
    void migrate(@Observes @Priority(Interceptor.Priority.LIBRARY_BEFORE) StartupEvent start) {
        if (!config.migrateAtStart()) {
            LOG.info("shard schema migration at start is disabled (pinion.mysql.migrate-at-start=false)");
            return;
        }
        long started = System.currentTimeMillis();
        gate.enforce();
        Set<String> hosts = hostNames(topology.get());
        hosts.forEach(gate::waitFor);
        List<MigrationReport> reports = Uni.join().all(hosts.stream().map(this::attempt).toList()).andFailFast()
                .await().atMost(config.migrationTimeout());
        MigrationReport total = reports.stream().filter(Objects::nonNull)
                .reduce(new MigrationReport(0, 0, ShardMigrations.latestVersion(), 0), MigrationReport::plus);
        LOG.infof("shard schema: %d databases at version %d, %d migrations applied, %d ms",
                total.databases(), total.latestVersion(), total.applied(), System.currentTimeMillis() - started);
        if (!gate.pending().isEmpty()) {
            LOG.warnf("shard schema: %s could not be reached; their shards answer 503 until they are reached and "
                    + "migrated (tried every %d ms)", gate.pending(), config.migrationRetryInterval().toMillis());
        }
        vertx.setPeriodic(config.migrationRetryInterval().toMillis(), ignored -> retryPending());
    }

    /** Hosts that join the topology are migrated before their shards are served. */
    void onTopologyChange(@Observes TopologyChanged change) {
        if (!config.migrateAtStart()) {
            return;
        }
        Set<String> now = hostNames(change.current());
        Set<String> before = hostNames(change.previous());
        gate.retain(now);
        now.stream().filter(host -> !before.contains(host)).forEach(gate::waitFor);
    }

    /**
     * Migrates the host and opens it; emits null when it cannot be reached, which leaves it waiting. A host must
     * first answer a statement within the connect and query timeouts, so a hung server does not hold the start up.
     */
    private Uni<MigrationReport> attempt(String host) {
        return migrator.reach(host, config.connectTimeout().plus(config.queryTimeout()))
                .flatMap(reached -> migrator.migrateHost(host))
                .invoke(report -> gate.verified(host))
                .onFailure(Outages::isUnavailable).recoverWithItem(failure -> {
                    LOG.debugf("shard schema: %s not reached: %s", host, Outages.describe(failure));
                    return null;
                });
    }

    private void retryPending() {
        Set<String> pending = gate.pending();
        if (pending.isEmpty() || !retrying.compareAndSet(false, true)) {
            return;
        }
        Multi.createFrom().iterable(pending)
                .onItem().transformToUniAndMerge(host -> attempt(host)
                        .invoke(report -> {
                            if (report != null) {
                                LOG.infof("shard schema: %s reached, %d databases at version %d, %d migrations "
                                        + "applied; its shards are served", host, report.databases(),
                                        report.latestVersion(), report.applied());
                            }
                        })
                        .onFailure().recoverWithItem(failure -> {
                            LOG.errorf("shard schema: %s cannot be migrated, its shards stay closed: %s", host,
                                    Outages.describe(failure));
                            return null;
                        }))
                .collect().last()
                .onTermination().invoke(() -> retrying.set(false))
                .subscribe().with(ignored -> {
                }, failure -> {
                });
    }

    private static Set<String> hostNames(Topology topology) {
        return topology.mysql().hosts().stream().map(MysqlHost::name)
                .collect(Collectors.toCollection(LinkedHashSet::new));
    }
}
