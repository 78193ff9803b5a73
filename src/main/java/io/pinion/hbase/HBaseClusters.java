package io.pinion.hbase;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.jboss.logging.Logger;

import io.pinion.topology.ActiveTopology;
import io.pinion.topology.HBaseClusterSpec;
import io.pinion.topology.HBaseRole;
import io.pinion.topology.TopologyChanged;
import io.quarkus.runtime.StartupEvent;

/**
 * The HBase clusters of the topology, one {@link HBaseCluster} (one connection) each, found by name or role.
 */
@ApplicationScoped
public class HBaseClusters {

    private static final Logger LOG = Logger.getLogger(HBaseClusters.class);

    private final HBaseConfig config;
    private final ActiveTopology topology;
    private final Map<String, HBaseCluster> clusters = new LinkedHashMap<>();

    HBaseClusters(HBaseConfig config, ActiveTopology topology) {
        this.config = config;
        this.topology = topology;
    }

    public synchronized HBaseCluster byName(String name) {
        return clusters.computeIfAbsent(name, n -> {
            HBaseClusterSpec spec = spec(n);
            return new HBaseCluster(n, () -> configuration(spec));
        });
    }

    public HBaseCluster forRole(HBaseRole role) {
        return byName(specFor(role).name());
    }

    /** The topology's description of the cluster playing the role (its ZooKeeper cluster key, for replication). */
    public HBaseClusterSpec specFor(HBaseRole role) {
        return topology.get().hbase().clusterFor(role)
                .orElseThrow(() -> new IllegalStateException("no HBase cluster for role " + role));
    }

    /** Every cluster of the current topology, in topology order. */
    public List<HBaseCluster> all() {
        return topology.get().hbase().clusters().stream()
                .map(spec -> byName(spec.name()))
                .toList();
    }

    private HBaseClusterSpec spec(String name) {
        return topology.get().hbase().cluster(name)
                .orElseThrow(() -> new IllegalArgumentException("no HBase cluster named " + name));
    }

    private Configuration configuration(HBaseClusterSpec spec) {
        Configuration conf = HBaseConfiguration.create();
        conf.set("hbase.client.registry.impl", "org.apache.hadoop.hbase.client.RpcConnectionRegistry");
        conf.set("hbase.client.bootstrap.servers", spec.bootstrap());
        conf.setLong("hbase.client.operation.timeout", config.operationTimeout().toMillis());
        conf.setLong("hbase.client.meta.operation.timeout", config.operationTimeout().toMillis());
        conf.setLong("hbase.rpc.timeout", config.rpcTimeout().toMillis());
        conf.setLong("hbase.rpc.read.timeout", config.rpcTimeout().toMillis());
        conf.setLong("hbase.rpc.write.timeout", config.rpcTimeout().toMillis());
        conf.setInt("hbase.client.retries.number", config.retries());
        conf.setLong("hbase.client.pause", config.pause().toMillis());
        conf.setInt("hbase.ipc.client.connect.timeout", (int)
                Math.min(config.rpcTimeout().toMillis(), Integer.MAX_VALUE));
        config.settings().forEach(conf::set);
        return conf;
    }

    /** Opens every cluster's connection in the background at start-up, so the first reads do not pay for it. */
    void warmUp(@Observes StartupEvent start) {
        all().forEach(cluster -> cluster.connection().subscribe().with(
                connection -> LOG.debugf("HBase connection to %s open", cluster.name()),
                failure -> LOG.warnf("HBase cluster %s not reachable yet: %s", cluster.name(), failure.getMessage())));
    }

    /** Closes the connections of clusters that left the topology or changed their bootstrap servers. */
    synchronized void onTopologyChange(@Observes TopologyChanged change) {
        change.previous().hbase().clusters().forEach(old -> {
            boolean same = change.current().hbase().cluster(old.name())
                    .map(spec -> spec.bootstrap().equals(old.bootstrap()))
                    .orElse(false);
            if (!same) {
                HBaseCluster cluster = clusters.remove(old.name());
                if (cluster != null) {
                    cluster.close();
                }
            }
        });
    }

    @PreDestroy
    synchronized void close() {
        clusters.values().forEach(HBaseCluster::close);
        clusters.clear();
    }
}
