package io.pinion.feed.store;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.hadoop.hbase.client.AsyncAdmin;
import org.apache.hadoop.hbase.replication.ReplicationPeerConfig;
import org.apache.hadoop.hbase.replication.ReplicationPeerDescription;
import org.jboss.logging.Logger;

import io.pinion.hbase.HBaseCalls;
import io.pinion.hbase.HBaseClusters;
import io.pinion.topology.HBaseRole;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;

/**
 * Keeps the materialized feed's standby in sync through HBase's own replication: a replication peer on the primary
 * cluster, {@value #PEER}, pointing at the standby's cluster key and limited to {@code pinion_feed_materialized:m}
 * (the family has global replication scope; the table exists on both clusters). Set up idempotently: at start and
 * then every {@code pinion.feed.replication-check} until it holds, and again after the topology changes; a peer with
 * another cluster key is replaced. Nothing on the request path waits for replication.
 */
@ApplicationScoped
public class StandbyReplication {

    static final String PEER = "pinion_feed_standby";
    private static final Logger LOG = Logger.getLogger(StandbyReplication.class);

    private final HBaseClusters clusters;
    private final FeedTables tables;
    private volatile String establishedFor;

    StandbyReplication(HBaseClusters clusters, FeedTables tables) {
        this.clusters = clusters;
        this.tables = tables;
    }

    /** Whether the primary and the standby are two clusters (else there is nothing to replicate). */
    public boolean separate() {
        return !clusters.specFor(HBaseRole.MATERIALIZED_PRIMARY).name()
                .equals(clusters.specFor(HBaseRole.MATERIALIZED_STANDBY).name());
    }

    @Scheduled(every = "${pinion.feed.replication-check:30s}", delayed = "2s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> check() {
        if (!separate()) {
            return Uni.createFrom().voidItem();
        }
        String standbyKey = clusters.specFor(HBaseRole.MATERIALIZED_STANDBY).zookeeper();
        String target = clusters.specFor(HBaseRole.MATERIALIZED_PRIMARY).name() + "->" + standbyKey;
        if (target.equals(establishedFor)) {
            return Uni.createFrom().voidItem();
        }
        return ensure(standbyKey)
                .invoke(() -> {
                    establishedFor = target;
                    LOG.infof("materialized feed replicates %s", target);
                })
                .onFailure().recoverWithItem(failure -> {
                    LOG.warnf("replication peer %s not set up yet: %s", PEER, failure.getMessage());
                    return null;
                });
    }

    /** Creates the table on both clusters, then adds (or replaces) the peer on the primary. */
    Uni<Void> ensure(String standbyKey) {
        return tables.materialized(HBaseRole.MATERIALIZED_STANDBY)
                .chain(() -> tables.materialized(HBaseRole.MATERIALIZED_PRIMARY))
                .chain(() -> clusters.forRole(HBaseRole.MATERIALIZED_PRIMARY).connection())
                .chain(connection -> {
                    AsyncAdmin admin = connection.getAdmin();
                    return HBaseCalls.uni(admin::listReplicationPeers).chain(peers -> {
                        Optional<ReplicationPeerDescription> found = peers.stream()
                                .filter(peer -> peer.getPeerId().equals(PEER))
                                .findFirst();
                        ReplicationPeerConfig wanted = config(standbyKey);
                        if (found.isEmpty()) {
                            return HBaseCalls.uni(() -> admin.addReplicationPeer(PEER, wanted));
                        }
                        ReplicationPeerConfig current = found.get().getPeerConfig();
                        if (!standbyKey.equals(current.getClusterKey())) {
                            return HBaseCalls.uni(() -> admin.removeReplicationPeer(PEER))
                                    .chain(() -> HBaseCalls.uni(() -> admin.addReplicationPeer(PEER, wanted)));
                        }
                        Uni<Void> enabled = found.get().isEnabled()
                                ? Uni.createFrom().voidItem()
                                : HBaseCalls.uni(() -> admin.enableReplicationPeer(PEER));
                        return wanted.getTableCFsMap().equals(current.getTableCFsMap())
                                ? enabled
                                : enabled.chain(
                                        () -> HBaseCalls.uni(() -> admin.updateReplicationPeerConfig(PEER, wanted)));
                    });
                });
    }

    private static ReplicationPeerConfig config(String standbyKey) {
        return ReplicationPeerConfig.newBuilder()
                .setClusterKey(standbyKey)
                .setReplicateAllUserTables(false)
                .setTableCFsMap(Map.of(FeedTables.MATERIALIZED, List.of(new String(FeedTables.MATERIALIZED_FAMILY),
                        new String(FeedTables.SHOWN_FAMILY))))
                .build();
    }
}
