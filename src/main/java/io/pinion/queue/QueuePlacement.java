package io.pinion.queue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.pinion.topology.MysqlHost;
import io.pinion.topology.MysqlTopology;

/**
 * Chooses the shard databases of a new queue's partitions (Pacer: a queue lives on only as many shards as it has
 * partitions). Partitions alternate between hosts, starting at a host picked by the queue's name, and on each host
 * go to the shard holding the fewest partitions so far; a queue never puts two partitions on one shard while
 * another shard is free of it.
 */
final class QueuePlacement {

    private QueuePlacement() {
    }

    static List<Integer> choose(MysqlTopology topology, List<QueuePartition> existing, String queueName,
            int firstPartition, int count, Set<Integer> alreadyUsed) {
        Map<Integer, Integer> load = new HashMap<>();
        existing.forEach(partition -> load.merge(partition.shard(), 1, Integer::sum));
        List<MysqlHost> hosts = topology.hosts();
        int spread = Math.floorMod(queueName.hashCode(), 1 << 16);
        Set<Integer> used = new HashSet<>(alreadyUsed);
        List<Integer> chosen = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            MysqlHost host = hosts.get((spread + firstPartition + i) % hosts.size());
            int[] shards = topology.shardsOf(host);
            int best = -1;
            long bestScore = Long.MAX_VALUE;
            for (int k = 0; k < shards.length; k++) {
                int shard = shards[(spread + k) % shards.length];
                long score = (used.contains(shard) ? 1L << 40 : 0) + ((long) load.getOrDefault(shard, 0) << 20) + k;
                if (score < bestScore) {
                    bestScore = score;
                    best = shard;
                }
            }
            chosen.add(best);
            used.add(best);
            load.merge(best, 1, Integer::sum);
        }
        return chosen;
    }
}
