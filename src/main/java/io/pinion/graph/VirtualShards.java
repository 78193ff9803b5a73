package io.pinion.graph;

import java.nio.charset.StandardCharsets;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.topology.ActiveTopology;

/**
 * Places graph keys: a user id, or an interest name, hashes to one of the topology's virtual shards (8192), and
 * ranges of virtual shards map to Redis instances. A board's keys live on its owner's virtual shard, so one
 * relationship touches exactly two virtual shards: the follower's and the followed user's (or interest's).
 */
@ApplicationScoped
public class VirtualShards {

    private final ActiveTopology topology;

    VirtualShards(ActiveTopology topology) {
        this.topology = topology;
    }

    public int count() {
        return topology.get().redis().virtualShards();
    }

    public int ofUser(long userId) {
        return (int) Long.remainderUnsigned(mix(userId), count());
    }

    public int ofInterest(String name) {
        long hash = 0xcbf29ce484222325L;
        for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
            hash = (hash ^ (b & 0xff)) * 0x100000001b3L;
        }
        return (int) Long.remainderUnsigned(mix(hash), count());
    }

    /** Whether writes to the virtual shard are held back because it is being moved. */
    public boolean frozen(int virtualShard) {
        return topology.get().redis().frozen().stream().anyMatch(range -> range.contains(virtualShard));
    }

    /** MurmurHash3's 64-bit finalizer: ids that differ in a few low bits land far apart. */
    static long mix(long value) {
        long h = value;
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return h;
    }
}
