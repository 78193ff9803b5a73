package io.pinion.feed.store;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.TableExistsException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.InvalidFamilyOperationException;
import org.apache.hadoop.hbase.client.AdvancedScanResultConsumer;
import org.apache.hadoop.hbase.client.AsyncAdmin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
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
 * {@code pinion_feed_materialized} (family {@code m} for the entries and {@code s} for the shown index, see
 * {@link MaterializedKey}; replication scope global so HBase replication can copy both to the standby; pre-split on
 * the salt byte like the pools) on the materialized primary and standby clusters. A materialized table made before
 * the shown index gets family {@code s} added at start.
 */
@ApplicationScoped
public class FeedTables {

    public static final TableName POOLS = TableName.valueOf("pinion_feed_pools");
    public static final TableName MATERIALIZED = TableName.valueOf("pinion_feed_materialized");
    public static final byte[] POOL_FAMILY = { 'p' };
    public static final byte[] MATERIALIZED_FAMILY = { 'm' };
    public static final byte[] SHOWN_FAMILY = { 's' };
    /**
     * Versions the shown index keeps per pin: one per chunk that holds the pin until a write deletes the older
     * copies, so more than one only while chunks with the same pin are written at once.
     */
    static final int SHOWN_VERSIONS = 16;
    private static final int REGIONS = 16;
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
            table(cluster, name)
                    .subscribe()
                    .with(
                            table -> LOG.debugf("feed table %s ready on %s", name, cluster.name()),
                            failure -> LOG.warnf(
                                    "feed table %s not ready on %s yet: %s",
                                    name, cluster.name(), failure.getMessage()));
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
                .chain(exists -> exists ? addMissingFamilies(connection.getAdmin(), name)
                        : HBaseCalls.uni(() -> connection.getAdmin().createTable(descriptor(name), splits()))
                                .onFailure(TableExistsException.class)
                                .recoverWithNull()
                                .replaceWithVoid()));
    }

    /** A table made by an earlier version gets the families it lacks (the materialized feed's shown index). */
    private static Uni<Void> addMissingFamilies(AsyncAdmin admin, TableName name) {
        return HBaseCalls.uni(() -> admin.getDescriptor(name)).chain(existing -> {
            Uni<Void> added = Uni.createFrom().voidItem();
            for (ColumnFamilyDescriptor family : descriptor(name).getColumnFamilies()) {
                if (!existing.hasColumnFamily(family.getName())) {
                    LOG.infof("adding family %s to %s", family.getNameAsString(), name);
                    added = added.chain(() -> HBaseCalls.uni(() -> admin.addColumnFamily(name, family))
                            .onFailure(InvalidFamilyOperationException.class).recoverWithNull()
                            .replaceWithVoid());
                }
            }
            return added;
        });
    }

    private static TableDescriptor descriptor(TableName name) {
        if (name.equals(POOLS)) {
            return TableDescriptorBuilder.newBuilder(name)
                    .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(POOL_FAMILY).setMaxVersions(1)
                            .setScope(HConstants.REPLICATION_SCOPE_LOCAL).build())
                    .build();
        }
        return TableDescriptorBuilder.newBuilder(name)
                .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(MATERIALIZED_FAMILY).setMaxVersions(1)
                        .setScope(HConstants.REPLICATION_SCOPE_GLOBAL).build())
                .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(SHOWN_FAMILY).setMaxVersions(SHOWN_VERSIONS)
                        .setScope(HConstants.REPLICATION_SCOPE_GLOBAL).build())
                .build();
    }

    private static byte[][] splits() {
        byte[][] splits = new byte[REGIONS - 1][];
        for (int i = 1; i < REGIONS; i++) {
            splits[i - 1] = new byte[] { (byte) (i * (256 / REGIONS)) };
        }
        return splits;
    }
}
