package io.pinion.ops;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.zookeeper.CacheEpoch;
import io.smallrye.mutiny.Uni;

/**
 * Drops every instance's caches (object cache, the graph's known users and board owners) through the cluster's cache
 * epoch in ZooKeeper: for data changed under the caches without invalidations, as {@code bin/restore} does.
 */
@ApplicationScoped
public class CacheDrops {

    private final CacheEpoch epoch;

    CacheDrops(CacheEpoch epoch) {
        this.epoch = epoch;
    }

    /** Emits the epoch's new version once written; every live instance drops its caches when it sees it. */
    public Uni<Integer> dropAll(String reason) {
        return epoch.drop(reason == null || reason.isBlank() ? "operator" : reason.strip());
    }
}
