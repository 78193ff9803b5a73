package io.pinion.queue.broker;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.pinion.queue.Queue;
import io.pinion.queue.QueuePartition;

/**
 * Which partitions a broker serves, computed alike by every broker from the same live members. Each queue's
 * partitions are shared evenly: with P partitions and B brokers every broker serves P / B of them, and P mod B
 * brokers one more (which ones depends on the queue, so that small queues do not all land on one broker). Within
 * those quotas each partition goes to the broker it ranks highest (rendezvous hashing), so when a broker joins or
 * leaves, mostly the partitions that must move do: a leaving broker's go to the others, a joining broker takes its
 * share from all.
 */
final class Assignment {

    /** A partition to serve, with its queue. */
    record Target(Queue queue, QueuePartition partition) {
    }

    private Assignment() {
    }

    /** The partitions {@code brokerId} serves, by key ({@code queueId/partition}); none when it is no member. */
    static Map<String, Target> of(String brokerId, List<String> members, Collection<Queue> queues) {
        Map<String, Target> mine = new LinkedHashMap<>();
        if (!members.contains(brokerId)) {
            return mine;
        }
        for (Queue queue : queues) {
            Map<Integer, String> owners = owners(queue.id(), queue.partitions().size(), members);
            for (QueuePartition partition : queue.partitions()) {
                if (brokerId.equals(owners.get(partition.partition()))) {
                    mine.put(partition.key(), new Target(queue, partition));
                }
            }
        }
        return mine;
    }

    /** Partition number → broker for a queue of {@code partitions} partitions among {@code members}. */
    static Map<Integer, String> owners(long queueId, int partitions, List<String> members) {
        int brokers = members.size();
        List<String> byQueue = new ArrayList<>(members);
        byQueue.sort(Comparator.comparingLong((String member) -> weight(queueId, -1, member))
                .thenComparing(member -> member));
        Map<String, Integer> quota = new HashMap<>();
        for (int rank = 0; rank < brokers; rank++) {
            quota.put(byQueue.get(rank), partitions / brokers + (rank < partitions % brokers ? 1 : 0));
        }
        Map<Integer, String> owners = new HashMap<>();
        for (int partition = 0; partition < partitions; partition++) {
            int p = partition;
            List<String> ranked = new ArrayList<>(members);
            ranked.sort(Comparator.comparingLong((String member) -> weight(queueId, p, member))
                    .thenComparing(member -> member));
            for (String member : ranked) {
                if (quota.get(member) > 0) {
                    quota.merge(member, -1, Integer::sum);
                    owners.put(partition, member);
                    break;
                }
            }
        }
        return owners;
    }

    /** A well-mixed, stable (the same in every JVM) weight of a broker for a partition; lower ranks higher. */
    private static long weight(long queueId, int partition, String member) {
        long h = queueId * 0x9E3779B97F4A7C15L
                ^ (partition + 1L) * 0xC2B2AE3D27D4EB4FL
                ^ member.hashCode() * 0x165667B19E3779F9L;
        h ^= h >>> 33;
        h *= 0xFF51AFD7ED558CCDL;
        h ^= h >>> 33;
        h *= 0xC4CEB9FE1A85EC53L;
        h ^= h >>> 33;
        return h;
    }
}
