package io.pinion.health;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.hadoop.hbase.ClusterMetrics;

import io.pinion.failure.Outages;
import io.pinion.hbase.HBaseCalls;
import io.pinion.hbase.HBaseCluster;
import io.pinion.hbase.HBaseClusters;
import io.pinion.mysql.MysqlPools;
import io.pinion.redis.RedisClients;
import io.pinion.redis.RedisInstanceClient;
import io.pinion.redis.SentinelWatch;
import io.pinion.topology.ActiveTopology;
import io.pinion.topology.HBaseClusterSpec;
import io.pinion.topology.MysqlHost;
import io.pinion.zookeeper.Zookeeper;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.sqlclient.Row;

/**
 * One probe per backend of the current topology, and a bounded way to run it.
 */
@ApplicationScoped
public class BackendProbes {

    private final ActiveTopology topology;
    private final MysqlPools mysql;
    private final RedisClients redis;
    private final HBaseClusters hbase;
    private final HealthConfig config;
    private final SentinelWatch sentinel;
    private final Zookeeper zookeeper;
    /** The latest run of each probe, by backend name. */
    private final Map<String, Recent> recent = new ConcurrentHashMap<>();

    private record Recent(long started, Uni<ProbeResult> result) {
    }

    /** Seconds each host's replica is behind its master, as its last probe saw it (-1: unknown or not replicating). */
    private final Map<String, java.util.concurrent.atomic.AtomicLong> replicaLag = new ConcurrentHashMap<>();
    private final io.micrometer.core.instrument.MeterRegistry registry;

    BackendProbes(ActiveTopology topology, MysqlPools mysql, RedisClients redis, HBaseClusters hbase,
            HealthConfig config, SentinelWatch sentinel, Zookeeper zookeeper,
            io.micrometer.core.instrument.MeterRegistry registry) {
        this.registry = registry;
        this.zookeeper = zookeeper;
        this.topology = topology;
        this.mysql = mysql;
        this.redis = redis;
        this.hbase = hbase;
        this.config = config;
        this.sentinel = sentinel;
    }

    /**
     * Probes of every MySQL host (and then of its replica, named {@code <host>-replica}), Redis instance (and, with
     * Sentinel, of its replicas as the sentinels see them, {@code <instance>-replica}) and HBase cluster, and of the
     * ZooKeeper ensemble, in that order.
     */
    public List<BackendProbe> all() {
        List<BackendProbe> probes = new ArrayList<>();
        for (MysqlHost host : topology.get().mysql().hosts()) {
            probes.add(new BackendProbe(host.name(), "mysql", host.master(), () -> pingMysql(host.name())));
            if (host.replica() != null) {
                probes.add(new BackendProbe(host.name() + "-replica", "mysql-replica", host.replica(),
                        () -> replication(host.name())));
            }
        }
        boolean sentinels = !topology.get().redis().sentinels().isEmpty();
        for (RedisInstanceClient client : redis.all()) {
            probes.add(new BackendProbe(client.name(), "redis", client.endpoint(), () -> pingRedis(client)));
            if (sentinels) {
                probes.add(new BackendProbe(
                        client.name() + "-replica",
                        "redis-replica",
                        String.join(",", topology.get().redis().sentinels()),
                        () -> sentinel.replication(client.name())));
            }
        }
        for (HBaseClusterSpec spec : topology.get().hbase().clusters()) {
            probes.add(new BackendProbe(
                    spec.name(), "hbase", spec.bootstrap(), () -> pingHBase(hbase.byName(spec.name()))));
        }
        probes.add(new BackendProbe("zookeeper", "zookeeper", zookeeper.describe(), zookeeper::ping));
        return probes;
    }

    /**
     * The probe's result, run now or reused from a run at most {@code pinion.health.probe-reuse} ago (concurrent askers
     * share one run): what monitoring reads, so that its polling, or anybody's, probes each backend at most once per
     * that time. Never fails.
     */
    public Uni<ProbeResult> recent(BackendProbe probe) {
        long now = System.nanoTime();
        Recent known = recent.get(probe.name());
        if (known != null && now - known.started() < config.probeReuse().toNanos()) {
            return known.result();
        }
        Uni<ProbeResult> result = run(probe).memoize().indefinitely();
        recent.put(probe.name(), new Recent(now, result));
        return result;
    }

    /** Runs the probe; never fails, never waits longer than the probe timeout. */
    public Uni<ProbeResult> run(BackendProbe probe) {
        long start = System.nanoTime();
        return Uni.createFrom().deferred(() -> probe.call().get())
                .ifNoItem().after(config.probeTimeout()).fail()
                .map(detail -> new ProbeResult(probe, true, millisSince(start), detail))
                .onFailure().recoverWithItem(failure -> new ProbeResult(probe, false, millisSince(start),
                        Outages.describe(failure)));
    }

    private Uni<String> pingMysql(String hostName) {
        return mysql.forHost(hostName)
                .query("SELECT VERSION()")
                .execute()
                .map(rows -> rows.iterator().next().getString(0));
    }

    /** Up while the replica's replication runs: its state and how far behind its master it is. */
    private Uni<String> replication(String hostName) {
        return mysql.replicaOf(hostName)
                .orElseThrow()
                .query("SHOW SLAVE STATUS")
                .execute()
                .onFailure()
                .invoke(() -> lag(hostName).set(-1))
                .map(rows -> {
                    lag(hostName).set(-1);
                    if (rows.size() == 0) {
                        throw new IllegalStateException("not replicating");
                    }
                    Row row = rows.iterator().next();
                    String io = row.getString("Slave_IO_Running");
                    String sql = row.getString("Slave_SQL_Running");
                    if (!"Yes".equals(io) || !"Yes".equals(sql)) {
                        throw new IllegalStateException("replication stopped (IO " + io + ", SQL " + sql + ")");
                    }
                    Object behind = row.getValue("Seconds_Behind_Master");
                    if (behind instanceof Number seconds) {
                        lag(hostName).set(seconds.longValue());
                    }
                    return "replicating, " + behind + " s behind its master (GTID: " + row.getString("Using_Gtid")
                            + ")";
                });
    }

    private java.util.concurrent.atomic.AtomicLong lag(String hostName) {
        return replicaLag.computeIfAbsent(hostName, name -> {
            java.util.concurrent.atomic.AtomicLong value = new java.util.concurrent.atomic.AtomicLong(-1);
            io.micrometer.core.instrument.Gauge.builder("pinion.mysql.replica.lag.seconds", value,
                    java.util.concurrent.atomic.AtomicLong::get)
                    .description("How far the host's replica is behind its master (Seconds_Behind_Master) at its last "
                            + "probe; -1 when it does not replicate or did not answer")
                    .tag("host", name).register(registry);
            return value;
        });
    }

    private Uni<String> pingRedis(RedisInstanceClient client) {
        return client.redis()
                .send(Request.cmd(Command.PING))
                .map(response -> response.toString());
    }

    private Uni<String> pingHBase(HBaseCluster cluster) {
        return cluster.connection()
                .flatMap(connection -> HBaseCalls.uni(() -> connection.getAdmin()
                        .getClusterMetrics(EnumSet.of(ClusterMetrics.Option.LIVE_SERVERS))))
                .map(metrics -> {
                    int live = metrics.getLiveServerMetrics().size();
                    if (live == 0) {
                        throw new IllegalStateException("no live region server");
                    }
                    return live + " live region server(s)";
                });
    }

    private static long millisSince(long startNanos) {
        return (System.nanoTime() - startNanos) / 1_000_000;
    }
}
