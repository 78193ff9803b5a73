package io.pinion.ops.failover;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.jboss.logging.Logger;

import io.pinion.failure.Outages;
import io.pinion.mysql.MysqlConfig;
import io.pinion.mysql.MysqlProbes;
import io.pinion.topology.ActiveTopology;
import io.pinion.topology.MysqlHost;
import io.pinion.zookeeper.ClusterViews;
import io.pinion.zookeeper.Leadership;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;

/**
 * Automatic failover, when {@code pinion.mysql.failover-after} is set: every {@code failover-check-interval} each
 * host's master gets a statement on a kept connection ({@link MysqlProbes}). A master that has not answered for
 * {@code failover-after} (counted from its last answer; the leader checks again at that moment rather than at its
 * next round) while its replica answers has its replica promoted ({@link MysqlFailover#promote}), which
 * names the new master in the topology in ZooKeeper, which every instance follows. Every instance publishes which
 * masters it cannot reach ({@link ClusterViews}); only the cluster's leader ({@link Leadership}) promotes, and only
 * when more than half of the live instances report the master unreachable (each reports a master only once it has
 * not reached it for {@code failover-after} itself): an instance cut off from a master that the
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
    private final MysqlProbes probes;
    private final Vertx vertx;
    private final MysqlFailover failover;
    private final FailoverMetrics metrics;
    private final Leadership leadership;
    private final ClusterViews views;
    /**
     * Since when each host's master has not answered (System.nanoTime() of its last answer, or of the first failed
     * check when it never answered), for hosts seen down since.
     */
    private final Map<String, Long> downSince = new ConcurrentHashMap<>();
    /** When each host's master last answered (System.nanoTime()). */
    private final Map<String, Long> lastAnswer = new ConcurrentHashMap<>();
    /** When the leader last said it would not promote a host for lack of a majority (System.nanoTime()). */
    private final Map<String, Long> noMajoritySaid = new ConcurrentHashMap<>();
    /** Hosts with a decision timer set (when it was set, System.nanoTime()). */
    private final Map<String, Long> decisionTimers = new ConcurrentHashMap<>();

    MysqlAutoFailover(MysqlConfig config, ActiveTopology topology, MysqlProbes probes, Vertx vertx,
            MysqlFailover failover, FailoverMetrics metrics, Leadership leadership, ClusterViews views) {
        this.leadership = leadership;
        this.views = views;
        this.config = config;
        this.topology = topology;
        this.probes = probes;
        this.vertx = vertx;
        this.failover = failover;
        this.metrics = metrics;
    }

    /**
     * With automatic failover on, this instance's reports count, it stands for leader, and it checks every
     * {@code failover-check-interval} (a Vert.x timer: the scheduler does not run jobs more often than once a second);
     * a round still running when the next is due is skipped.
     */
    void onStart(@Observes StartupEvent start) throws Exception {
        if (config.failoverAfter().isPresent()) {
            views.checksMysql();
            leadership.join();
            AtomicBoolean checking = new AtomicBoolean();
            vertx.setPeriodic(1_000, config.failoverCheckInterval().toMillis(), id -> {
                if (checking.compareAndSet(false, true)) {
                    check().subscribe().with(ok -> checking.set(false), failure -> checking.set(false));
                }
            });
        }
    }

    Uni<Void> check() {
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
                        .invoke(() -> views.mysqlUnreachable(downFor(after)));
    }

    /**
     * The hosts whose master this instance has not reached for {@code failover-after}: what it reports. A master that
     * does not answer for a moment is not reported, so a short blip seen by most instances promotes nothing even when
     * the leader itself has long been cut off from it.
     */
    private Set<String> downFor(Duration after) {
        long now = System.nanoTime();
        Set<String> down = new TreeSet<>();
        downSince.forEach((host, since) -> {
            if (now - since >= after.toNanos()) {
                down.add(host);
            }
        });
        return down;
    }

    private Uni<Void> check(MysqlHost host, Duration after) {
        return answers(host.masterEndpoint()).chain(up -> {
            long now = System.nanoTime();
            if (up) {
                lastAnswer.put(host.name(), now);
                downSince.remove(host.name());
                metrics.unreachableFor(host.name(), 0);
                return Uni.createFrom().voidItem();
            }
            long since = downSince.computeIfAbsent(host.name(), name -> lastAnswer.getOrDefault(name, now));
            long downMs = (now - since) / 1_000_000;
            metrics.unreachableFor(host.name(), downMs);
            views.mysqlUnreachable(downFor(after));
            if (downMs < after.toMillis()) {
                decideAt(host, after, after.toMillis() - downMs); // report (and, the leader, decide) on time
                return Uni.createFrom().voidItem();
            }
            if (!leadership.leads()) {
                return Uni.createFrom().voidItem(); // only the leader decides, with everyone's reports
            }
            return majorityReports(host.name()).chain(majority -> {
                if (!majority) {
                    if (downMs < after.toMillis() + 1_000) {
                        decideAt(host, after, 100); // the others report at about the same moment: look again soon
                    }
                    long lastSaid = noMajoritySaid.getOrDefault(host.name(), 0L);
                    if (now - lastSaid >= 1_000_000_000L) { // once a second at most
                        noMajoritySaid.put(host.name(), now);
                        LOG.warnf(
                                "%s: master %s unreachable from the leader for %d ms, but not from most instances: no "
                                        + "promotion",
                                host.name(), host.master(), downMs);
                    }
                    return Uni.createFrom().voidItem();
                }
                return promoteIfReplicaAnswers(host, downMs);
            });
        });
    }

    /**
     * Checks the host again in {@code inMs} (when its master will have been down for {@code failover-after}, rather
     * than at the first round after that): the instance reports it then, and the leader decides. One timer per host.
     */
    private void decideAt(MysqlHost host, Duration after, long inMs) {
        if (decisionTimers.putIfAbsent(host.name(), System.nanoTime()) != null) {
            return; // one is set (marked before the timer exists, so that a timer that fires at once finds its mark)
        }
        vertx.setTimer(Math.max(1, inMs), id -> {
            decisionTimers.remove(host.name());
            boolean sameMaster = topology.get().mysql().hosts().stream().anyMatch(current -> current.equals(host));
            if (sameMaster && downSince.containsKey(host.name()) && !failover.promoting(host.name())) {
                check(host, after).invoke(() -> views.mysqlUnreachable(downFor(after))).subscribe().with(ok -> {
                }, failure -> LOG.debugf("%s: decision check failed: %s", host.name(), Outages.describe(failure)));
            }
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
                    .invoke(() -> {
                        // the new master starts with a clean record: its down time counts from now at the earliest
                        downSince.remove(host.name());
                        lastAnswer.put(host.name(), System.nanoTime());
                    })
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
        return probes.answers(server);
    }
}
