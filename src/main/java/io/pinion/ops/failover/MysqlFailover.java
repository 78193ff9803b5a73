package io.pinion.ops.failover;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.pinion.failure.Conflict;
import io.pinion.failure.NotFound;
import io.pinion.failure.Outages;
import io.pinion.failure.Unavailable;
import io.pinion.mysql.MysqlServers;
import io.pinion.topology.ActiveTopology;
import io.pinion.topology.HostPort;
import io.pinion.topology.MysqlHost;
import io.pinion.topology.MysqlTopology;
import io.pinion.topology.Topology;
import io.pinion.zookeeper.ClusterViews;
import io.pinion.zookeeper.TopologyZnode;
import io.smallrye.mutiny.Uni;

/**
 * Promotes a MySQL host's replica to be its master, and points the other server of the pair at the master again.
 * A promotion fences the master (read-only, so the service's account cannot write there; skipped when it does not
 * answer), lets the replica apply everything it received, swaps master and replica in the topology in ZooKeeper, which
 * every instance watching it puts in force, and makes the new master writable. See docs/operations.md ("MySQL
 * failover") for what a write acknowledged just before a crash can and cannot survive.
 */
@ApplicationScoped
public class MysqlFailover {

    private static final Logger LOG = Logger.getLogger(MysqlFailover.class);

    /** How long a promotion waits for the replica to apply what it received before it goes on without. */
    static final Duration APPLY_WAIT = Duration.ofSeconds(10);
    /** How long a promotion waits for every live instance to be on the new topology before it opens the new master. */
    static final Duration ACK_WAIT = Duration.ofSeconds(5);
    /**
     * How long a promotion tries to fence the master: a master that hangs (paused, disk stalled) gets the statement
     * when it wakes up, but the promotion goes on as with a master that does not answer.
     */
    static final Duration FENCE_WAIT = Duration.ofSeconds(2);
    /** How long a rejoin waits for the replica's replication threads to run before it answers. */
    static final Duration RUNNING_WAIT = Duration.ofSeconds(10);

    private final ActiveTopology topology;
    private final MysqlServers servers;
    private final FailoverMetrics metrics;
    private final TopologyZnode znode;
    private final ClusterViews views;
    private final Set<String> promoting = ConcurrentHashMap.newKeySet();

    MysqlFailover(ActiveTopology topology, MysqlServers servers, FailoverMetrics metrics, TopologyZnode znode,
            ClusterViews views) {
        this.views = views;
        this.topology = topology;
        this.znode = znode;
        this.servers = servers;
        this.metrics = metrics;
    }

    /** Whether a promotion of the host is running in this instance. */
    public boolean promoting(String hostName) {
        return promoting.contains(hostName);
    }

    /** Who asked for a promotion. */
    public enum Trigger {
        /** An operator, through the admin API or {@code bin/admin promote}. */
        MANUAL,
        /** {@link MysqlAutoFailover}, after the master stayed unreachable for {@code pinion.mysql.failover-after}. */
        AUTOMATIC
    }

    /**
     * What a promotion did.
     *
     * @param host            the host whose master changed
     * @param master          the new master (the replica before)
     * @param replica         the old master, now the host's replica in the topology (fenced if it answered)
     * @param oldMasterFenced whether the old master answered and was set read-only
     * @param applied         whether the replica applied everything it had received before it was promoted
     * @param gtidPosition    the new master's GTID position when it took over
     * @param trigger         who asked for it
     * @param tookMs          the promotion's duration
     * @param notAcknowledged the live instances that were not on the new topology version within {@link #ACK_WAIT}
     *                        when the new master was opened (empty: every instance was)
     */
    public record Promotion(String host, String master, String replica, boolean oldMasterFenced, boolean applied,
            String gtidPosition, Trigger trigger, long tookMs, List<String> notAcknowledged) {
    }

    /**
     * What pointing the replica at its master did.
     *
     * @param host    the host
     * @param replica the server that now replicates
     * @param master  the master it replicates from
     * @param running whether both replication threads ran within {@link #RUNNING_WAIT} of the rejoin (false: the
     *                replica still connects or stopped with an error, which {@code GET /v1/admin/backends} shows)
     */
    public record Rejoin(String host, String replica, String master, boolean running) {
    }

    /**
     * Promotes the host's replica. In order: the master is fenced (read-only; skipped when it does not answer, and a
     * master that comes back starts read-only), the replica applies everything the fenced master logged (refused with
     * {@code replica_behind} if it cannot within {@link #APPLY_WAIT}, and the master is opened again), or, when the
     * master did not answer, everything the replica received (up to {@link #APPLY_WAIT}),
     * stops replicating, the topology in ZooKeeper names it master (every instance follows), and only then is it
     * made writable, so no instance that still names it replica fences it back. One promotion per host at a time;
     * none without a ZooKeeper session (fails fast with 503 before anything is touched).
     */
    public Uni<Promotion> promote(String hostName, Trigger trigger) {
        return promote(hostName, trigger, false);
    }

    /**
     * As {@link #promote(String, Trigger)}; an operator's promotion whose old master does not answer (so cannot be
     * fenced) is refused with 409 {@code old_master_not_fenced} unless {@code force}: only the operator knows it is
     * down rather than cut off from this instance. An automatic promotion has a majority of the instances' reports
     * instead ({@link MysqlAutoFailover}).
     */
    public Uni<Promotion> promote(String hostName, Trigger trigger, boolean force) {
        MysqlHost host = withReplica(hostName);
        if (!znode.writable()) {
            // the new master could not be named in the topology: nothing is fenced or detached
            return Uni.createFrom().failure(new Unavailable("zookeeper (the topology cannot change)",
                    new IllegalStateException("no ZooKeeper session")));
        }
        if (!promoting.add(hostName)) {
            return Uni.createFrom()
                    .failure(new Conflict("promotion_running", "a promotion of " + hostName + " is running"));
        }
        long start = System.nanoTime();
        long[] steps = new long[4]; // fenced, caught up, detached, topology written (System.nanoTime())
        HostPort oldMaster = host.masterEndpoint();
        HostPort replica = host.replicaEndpoint();
        Uni<Boolean> fence = servers.readOnly(oldMaster, true).ifNoItem().after(FENCE_WAIT).fail().replaceWith(true)
                .onFailure().recoverWithItem(failure -> {
                    LOG.warnf("promotion of %s: the old master %s was not fenced: %s", hostName, host.master(),
                            Outages.describe(failure));
                    return false;
                });
        return fence.invoke(() -> steps[0] = System.nanoTime())
                .chain(fenced -> servers.replication(replica)
                        .chain(state -> {
                            if (!fenced && trigger == Trigger.MANUAL && !force) {
                                throw new Conflict(
                                        "old_master_not_fenced",
                                        "the master of " + hostName + " (" + host.master()
                                                + ") does not answer, so it cannot be fenced; promote with force once"
                                                + " it is known to be down (a master that comes back starts"
                                                + " read-only)");
                            }
                            if (!state.replicating()) {
                                throw new Conflict(
                                        "not_a_replica", "the replica of " + hostName + " does not replicate");
                            }
                            if (!fenced) {
                                return servers.applied(replica, state.receivedGtid(), APPLY_WAIT);
                            }
                            // a fenced master writes nothing more: the replica applies everything it logged, or nothing
                            // moves
                            return servers.binlogPosition(oldMaster)
                                    .chain(position -> servers.caughtUp(replica, position, APPLY_WAIT))
                                    .invoke(applied -> {
                                        if (!applied) {
                                            throw new Conflict(
                                                    "replica_behind",
                                                    "the replica of " + hostName + " did not "
                                                            + "apply everything its master holds within "
                                                            + APPLY_WAIT.toSeconds() + " s");
                                        }
                                    });
                        })
                        .invoke(() -> steps[1] = System.nanoTime())
                        .chain(applied -> servers.detach(replica)
                                .invoke(() -> steps[2] = System.nanoTime())
                                .chain(position -> swap(hostName, host)
                                        .invoke(() -> steps[3] = System.nanoTime())
                                        .chain(swapped -> views.awaitTopology(swapped.version(), ACK_WAIT))
                                        .call(() -> servers.readOnly(replica, false))
                                        .map(notAcknowledged -> {
                                            long tookMs = (System.nanoTime() - start) / 1_000_000;
                                            LOG.infof(
                                                    "promoted the replica of %s (%s) in %d ms (%s); old master %s %s"
                                                        + " (fence %d ms, replica caught up %d ms, detached %d ms,"
                                                        + " topology written %d ms, every instance on it and the new"
                                                        + " master open %d ms)",
                                                    hostName,
                                                    host.replica(),
                                                    tookMs,
                                                    trigger,
                                                    host.master(),
                                                    fenced ? "fenced" : "not reached",
                                                    (steps[0] - start) / 1_000_000,
                                                    (steps[1] - steps[0]) / 1_000_000,
                                                    (steps[2] - steps[1]) / 1_000_000,
                                                    (steps[3] - steps[2]) / 1_000_000,
                                                    (System.nanoTime() - steps[3]) / 1_000_000);
                                            metrics.promoted(hostName, trigger, tookMs);
                                            if (!notAcknowledged.isEmpty()) {
                                                LOG.warnf(
                                                        "promotion of %s: instances %s were not on the new topology"
                                                                + " within %d ms",
                                                        hostName, notAcknowledged, ACK_WAIT.toMillis());
                                            }
                                            return new Promotion(
                                                    hostName,
                                                    host.replica(),
                                                    host.master(),
                                                    fenced,
                                                    applied,
                                                    position,
                                                    trigger,
                                                    tookMs,
                                                    notAcknowledged);
                                        })))
                        .onFailure()
                        .call(failure -> fenced
                                ? unfence(hostName, oldMaster, failure)
                                : Uni.createFrom().voidItem()))
                .eventually(() -> promoting.remove(hostName));
    }

    /** A promotion that failed before the topology changed opens the master it fenced again: it is still the master. */
    private Uni<Void> unfence(String hostName, HostPort oldMaster, Throwable failure) {
        boolean stillMaster = topology.get().mysql().hosts().stream()
                .anyMatch(h -> h.name().equals(hostName) && h.masterEndpoint().equals(oldMaster));
        if (!stillMaster) {
            return Uni.createFrom().voidItem();
        }
        LOG.warnf("promotion of %s failed (%s): its master %s is writable again", hostName, Outages.describe(failure),
                oldMaster);
        return servers.readOnly(oldMaster, false).onFailure().recoverWithNull();
    }

    /**
     * Makes the host's replica in the topology (the old master, after a promotion) replicate from its master by
     * GTID, read-only. Refused with 409 {@code diverged} when it holds transactions the master never received (an old
     * master that crashed before its last commits reached the replica): it must be rebuilt from the master first.
     */
    public Uni<Rejoin> rejoin(String hostName) {
        MysqlHost host = withReplica(hostName);
        return servers.gtids(host.replicaEndpoint())
                .chain(follower -> servers.gtids(host.masterEndpoint()).map(master -> {
                    long ahead = follower.position().aheadOf(master.binlog());
                    if (ahead > 0) {
                        metrics.diverged(hostName, ahead);
                        throw new Conflict(
                                "diverged",
                                host.replica() + " holds " + ahead + " transaction(s) its master "
                                        + host.master() + " never received (its position " + follower.position()
                                        + ", the master's binary log " + master.binlog()
                                        + "): rebuild it from the master (on the local stack: bin/stack reseed), then"
                                        + " rejoin");
                    }
                    return ahead;
                }))
                .chain(() -> servers.follow(host.replicaEndpoint(), host.masterEndpoint()))
                .chain(() -> servers.running(host.replicaEndpoint(), RUNNING_WAIT))
                .map(running -> new Rejoin(hostName, host.replica(), host.master(), running));
    }

    private MysqlHost withReplica(String hostName) {
        MysqlHost host = topology.get().mysql().hosts().stream().filter(h -> h.name().equals(hostName)).findFirst()
                .orElseThrow(() -> new NotFound("host_not_found", "no MySQL host named " + hostName));
        if (host.replica() == null) {
            throw new Conflict("no_replica", "MySQL host " + hostName + " has no replica in the topology");
        }
        return host;
    }

    /**
     * The topology with the host's master and replica swapped, a compare-and-set on the version in ZooKeeper, in
     * force here when it completes and on every instance as soon as its watch fires; refused when the host's entry
     * changed since the promotion began.
     */
    private Uni<ActiveTopology.Versioned> swap(String hostName, MysqlHost before) {
        return znode.change(-1, current -> {
            List<MysqlHost> hosts = new ArrayList<>();
            for (MysqlHost host : current.mysql().hosts()) {
                if (host.name().equals(hostName) && !host.equals(before)) {
                    throw new Conflict(
                            "topology_changed", "the topology of " + hostName + " changed during its promotion");
                }
                hosts.add(
                        host.name().equals(hostName)
                                ? new MysqlHost(host.name(), host.replica(), host.master(), host.shards())
                                : host);
            }
            MysqlTopology mysql = new MysqlTopology(
                    current.mysql().shardCount(), current.mysql().openShards(), hosts);
            return new Topology(mysql, current.redis(), current.hbase());
        });
    }
}
