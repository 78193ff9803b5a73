package io.pinion.ops;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.jboss.logging.Logger;

import io.pinion.failure.Outages;
import io.pinion.mysql.MysqlConfig;
import io.pinion.mysql.MysqlServers;
import io.pinion.topology.ActiveTopology;
import io.pinion.topology.MysqlHost;
import io.pinion.zookeeper.ClusterViews;
import io.pinion.zookeeper.Leadership;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;

/**
 * Automatic failover, when {@code pinion.mysql.failover-after} is set: every {@code failover-check-interval} each
 * host's master gets a statement through a fresh connection. A master that has not answered for
 * {@code failover-after} while its replica answers has its replica promoted ({@link MysqlFailover#promote}), which
 * names the new master in the topology in ZooKeeper, which every instance follows. Every instance publishes which
 * masters it cannot reach ({@link ClusterViews}); only the cluster's leader ({@link Leadership}) promotes, and only
 * when more than half of the live instances report the master unreachable: an instance cut off from a master that the
 * others still reach promotes nothing (its requests to that host fail fast instead), and without a ZooKeeper session
 * nobody promotes. An instance that finds a promotion already running, or the topology already changed, leaves it
 * be. The old master is not rejoined automatically: it may hold transactions that never reached the replica, which
 * only an operator can decide about (see docs/operations.md).
 */
@ApplicationScoped
public class MysqlAutoFailover {

    private static final Logger LOG = Logger.getLogger(MysqlAutoFailover.class);

    private final MysqlConfig config;
    private final ActiveTopology topology;
    private final MysqlServers servers;
    private final MysqlFailover failover;
    private final FailoverMetrics metrics;
    private final Leadership leadership;
    private final ClusterViews views;
    /** When each host's master was first seen down (System.nanoTime()), for hosts seen down since. */
    private final Map<String, Long> downSince = new ConcurrentHashMap<>();

    MysqlAutoFailover(MysqlConfig config, ActiveTopology topology, MysqlServers servers, MysqlFailover failover,
            FailoverMetrics metrics, Leadership leadership, ClusterViews views) {
        this.leadership = leadership;
        this.views = views;
        this.config = config;
        this.topology = topology;
        this.servers = servers;
        this.failover = failover;
        this.metrics = metrics;
    }

    /** With automatic failover on, this instance's reports count, and it stands for leader. */
    void onStart(@Observes StartupEvent start) throws Exception {
        if (config.failoverAfter().isPresent()) {
            views.checksMysql();
            leadership.join();
        }
    }

    @Scheduled(every = "${pinion.mysql.failover-check-interval:1s}", delayed = "1s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> check() {
        if (config.failoverAfter().isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        Duration after = config.failoverAfter().get();
        List<Uni<Void>> checks = new ArrayList<>();
        for (MysqlHost host : topology.get().mysql().hosts()) {
            if (host.replica() != null && !failover.promoting(host.name())) {
                checks.add(check(host, after));
            }
        }
        return checks.isEmpty() ? Uni.createFrom().voidItem()
                : Uni.join().all(checks).andCollectFailures().replaceWithVoid()
                        .onFailure().recoverWithUni(failure -> Uni.createFrom().voidItem())
                        .invoke(() -> views.mysqlUnreachable(downSince.keySet()));
    }

    private Uni<Void> check(MysqlHost host, Duration after) {
        return answers(host.masterEndpoint()).chain(up -> {
            if (up) {
                downSince.remove(host.name());
                metrics.unreachableFor(host.name(), 0);
                return Uni.createFrom().voidItem();
            }
            long since = downSince.computeIfAbsent(host.name(), name -> System.nanoTime());
            long downMs = (System.nanoTime() - since) / 1_000_000;
            metrics.unreachableFor(host.name(), downMs);
            views.mysqlUnreachable(downSince.keySet());
            if (downMs < after.toMillis() || !leadership.leads()) {
                return Uni.createFrom().voidItem(); // only the leader decides, with everyone's reports
            }
            return majorityReports(host.name()).chain(majority -> {
                if (!majority) {
                    LOG.warnf("%s: master %s unreachable from the leader for %d ms, but not from most instances: no "
                            + "promotion", host.name(), host.master(), downMs);
                    return Uni.createFrom().voidItem();
                }
                return promoteIfReplicaAnswers(host, downMs);
            });
        });
    }

    private Uni<Void> promoteIfReplicaAnswers(MysqlHost host, long downMs) {
        return answers(host.replicaEndpoint()).chain(replicaUp -> {
            if (!replicaUp) {
                LOG.warnf("%s: master %s unreachable for %d ms, but its replica %s does not answer either: no "
                        + "promotion", host.name(), host.master(), downMs, host.replica());
                return Uni.createFrom().voidItem();
            }
            LOG.warnf("%s: master %s unreachable for %d ms from most instances: promoting its replica %s", host.name(),
                    host.master(), downMs, host.replica());
            return failover.promote(host.name(), MysqlFailover.Trigger.AUTOMATIC)
                    .invoke(() -> downSince.remove(host.name()))
                    .onFailure().invoke(failure -> LOG.warnf("%s: automatic promotion failed: %s", host.name(),
                            Outages.describe(failure)))
                    .replaceWithVoid();
        });
    }

    /** Whether more than half of the live instances that check the masters report the host's master unreachable. */
    private Uni<Boolean> majorityReports(String hostName) {
        return views.all().map(all -> {
            List<ClusterViews.View> voters = all.stream().filter(ClusterViews.View::checksMysql).toList();
            long down = voters.stream().filter(view -> view.mysqlUnreachable().contains(hostName)).count();
            return down * 2 > voters.size();
        }).onFailure().recoverWithItem(false);
    }

    /** Whether the server runs a statement within the connect timeout. */
    private Uni<Boolean> answers(io.pinion.topology.HostPort server) {
        return servers.ping(server).ifNoItem().after(config.connectTimeout()).fail()
                .replaceWith(true).onFailure().recoverWithItem(false);
    }
}
