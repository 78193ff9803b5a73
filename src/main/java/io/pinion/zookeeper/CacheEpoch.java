package io.pinion.zookeeper;

import java.nio.charset.StandardCharsets;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.event.Observes;

import org.apache.curator.framework.api.CuratorWatcher;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.jboss.logging.Logger;

import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;

/**
 * The cluster's cache epoch, {@code <root>/caches}: writing it makes every instance drop its caches
 * ({@link CachesDropped}), for what no invalidation announces: data restored from a backup under running instances,
 * or an operator's doubt. Each instance watches the znode and, when it sees a version it has not, fires the event
 * once; a drop made while an instance had no session is seen when the session is back.
 */
@ApplicationScoped
public class CacheEpoch {

    static final String PATH = "/caches";

    private static final Logger LOG = Logger.getLogger(CacheEpoch.class);

    private final Zookeeper zookeeper;
    private final Event<CachesDropped> dropped;
    private final CuratorWatcher watcher = event -> Infrastructure.getDefaultWorkerPool().execute(this::read);
    private int seen = -1;
    private boolean readOnce;

    CacheEpoch(Zookeeper zookeeper, Event<CachesDropped> dropped) {
        this.zookeeper = zookeeper;
        this.dropped = dropped;
    }

    void onStart(@Observes StartupEvent start) {
        if (zookeeper.member()) {
            zookeeper.onConnectionChange(connected -> {
                if (connected) {
                    Infrastructure.getDefaultWorkerPool().execute(this::read);
                }
            });
        }
    }

    /** Makes every instance of the cluster drop its caches; emits the epoch's new version. */
    public Uni<Integer> drop(String reason) {
        return zookeeper.call("cache drop", () -> {
            byte[] data = reason.getBytes(StandardCharsets.UTF_8);
            try {
                return zookeeper.client().setData().forPath(PATH, data).getVersion();
            } catch (KeeperException.NoNodeException none) {
                try {
                    zookeeper.client().create().withMode(CreateMode.PERSISTENT).forPath(PATH, data);
                    return 0;
                } catch (KeeperException.NodeExistsException raced) {
                    return zookeeper.client().setData().forPath(PATH, data).getVersion();
                }
            }
        });
    }

    /** Reads the epoch with a watch; a version newer than the one seen fires the event (not the first read). */
    private synchronized void read() {
        if (zookeeper.closed()) {
            return;
        }
        try {
            Stat stat = zookeeper.client().checkExists().usingWatcher(watcher).forPath(PATH);
            int version = stat == null ? -1 : stat.getVersion();
            String reason = "";
            if (stat != null) {
                try {
                    reason = new String(zookeeper.client().getData().forPath(PATH), StandardCharsets.UTF_8);
                } catch (KeeperException.NoNodeException gone) {
                    version = -1;
                }
            }
            if (readOnce && version > seen) {
                LOG.infof("dropping this instance's caches: cache epoch %d (%s)", version, reason);
                dropped.fire(new CachesDropped(reason, version));
            }
            readOnce = true;
            seen = Math.max(seen, version);
        } catch (Exception e) {
            LOG.debugf("reading the cache epoch waits for ZooKeeper: %s", e.getMessage());
        }
    }
}
