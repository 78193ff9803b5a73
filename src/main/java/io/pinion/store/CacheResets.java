package io.pinion.store;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.ObservesAsync;

import org.jboss.logging.Logger;

import io.pinion.redis.RedisMasterChanged;
import io.pinion.topology.TopologyChanged;
import io.pinion.zookeeper.CachesDropped;

/**
 * Empties the object cache when what it was filled from may have changed under it without an invalidation: a new
 * topology version (a shard moved, a MySQL master promoted: rows read from a server the cluster has left) and a Redis
 * master moved by Sentinel (invalidations published while the channel's server failed over may be lost), and a drop
 * of every instance's caches through ZooKeeper (after {@code bin/restore}, or by an operator). Fills that began
 * before keep out ({@link ObjectCache#clear()}).
 */
@ApplicationScoped
public class CacheResets {

    private static final Logger LOG = Logger.getLogger(CacheResets.class);

    private final ObjectCache cache;

    CacheResets(ObjectCache cache) {
        this.cache = cache;
    }

    void onTopologyChange(@Observes TopologyChanged change) {
        cache.clear();
        LOG.debug("object cache emptied: the topology changed");
    }

    void onCachesDropped(@Observes CachesDropped drop) {
        cache.clear();
        LOG.infof("object cache emptied: caches dropped cluster-wide (%s)", drop.reason());
    }

    void onRedisMasterChange(@ObservesAsync RedisMasterChanged change) {
        cache.clear();
        LOG.infof(
                "object cache emptied: Redis %s's master moved from %s to %s",
                change.instance(), change.from(), change.to());
    }
}
