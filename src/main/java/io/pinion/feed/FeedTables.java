package io.pinion.feed;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.TableExistsException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.AdvancedScanResultConsumer;
import org.apache.hadoop.hbase.client.AsyncTable;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.jboss.logging.Logger;

import io.pinion.hbase.HBaseCalls;
import io.pinion.hbase.HBaseCluster;
import io.pinion.hbase.HBaseClusters;
import io.pinion.topology.HBaseRole;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;

/**
 * The feed's HBase tables, created on first use on the cluster that plays their role:
 * {@code pinion_feed_pools} (family {@code p}, pre-split on the salt byte into 16 regions) on the pools cluster, and
 * {@code pinion_feed_materialized} (family {@code m}, replication scope global so HBase replication can copy it to
 * the standby) on the materialized primary and standby clusters.
 */
@ApplicationScoped
public class FeedTables {

    public static final TableName POOLS = TableName.valueOf("pinion_feed_pools");
    public static final TableName MATERIALIZED = TableName.valueOf("pinion_feed_materialized");
    public static final byte[] POOL_FAMILY = { 'p' };
    public static final byte[] MATERIALIZED_FAMILY = { 'm' };
    private static final int POOL_REGIONS = 16;
    private static final Logger LOG = Logger.getLogger(FeedTables.class);

    private final HBaseClusters clusters;
    private final Map<String, Boolean> ready = new ConcurrentHashMap<>();

    FeedTables(HBaseClusters clusters) {
        this.clusters = clusters;
    }

    public Uni<AsyncTable<AdvancedScanResultConsumer>> pools() {
        return table(clusters.forRole(HBaseRole.POOLS), POOLS);
    }

    public Uni<AsyncTable<AdvancedScanResultConsumer>> materialized(HBaseRole role) {
        return table(clusters.forRole(role), MATERIALIZED);
    }

    /** Creates the tables in the background at start-up; a cluster that is down gets them on first use. */
    void createAtStartup(@Observes StartupEvent start) {
        for (HBaseRole role : HBaseRole.values()) {
            HBaseCluster cluster = clusters.forRole(role);
            TableName name = role == HBaseRole.POOLS ? POOLS : MATERIALIZED;
            table(cluster, name).subscribe().with(
                    table -> LOG.debugf("feed table %s ready on %s", name, cluster.name()),
                    failure -> LOG.warnf("feed table %s not ready on %s yet: %s", name, cluster.name(), failure.getMessage()));
        }
    }

    private Uni<AsyncTable<AdvancedScanResultConsumer>> table(HBaseCluster cluster, TableName name) {
        String key = cluster.name() + "/" + name;
        Uni<Void> created = ready.containsKey(key) ? Uni.createFrom().voidItem()
                : create(cluster, name).invoke(() -> ready.put(key, true));
        return created.chain(cluster::connection).map(connection -> connection.getTable(name));
    }

    private static Uni<Void> create(HBaseCluster cluster, TableName name) {
        return cluster.connection().chain(connection -> HBaseCalls.uni(() -> connection.getAdmin().tableExists(name))
                .chain(exists -> exists ? Uni.createFrom().voidItem()
                        : HBaseCalls.uni(() -> name.equals(POOLS)
                                ? connection.getAdmin().createTable(descriptor(name), splits())
                                : connection.getAdmin().createTable(descriptor(name)))
                                .onFailure(TableExistsException.class)
                                .recoverWithNull()
                                .replaceWithVoid()));
    }

    private static TableDescriptor descriptor(TableName name) {
        boolean pools = name.equals(POOLS);
        return TableDescriptorBuilder.newBuilder(name)
                .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(pools ? POOL_FAMILY : MATERIALIZED_FAMILY)
                        .setMaxVersions(1)
                        .setScope(pools ? HConstants.REPLICATION_SCOPE_LOCAL : HConstants.REPLICATION_SCOPE_GLOBAL)
                        .build())
                .build();
    }

    private static byte[][] splits() {
        byte[][] splits = new byte[POOL_REGIONS - 1][];
        for (int i = 1; i < POOL_REGIONS; i++) {
            splits[i - 1] = new byte[] { (byte) (i * (256 / POOL_REGIONS)) };
        }
        return splits;
    }
}
