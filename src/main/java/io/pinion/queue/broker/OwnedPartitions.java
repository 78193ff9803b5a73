package io.pinion.queue.broker;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.pinion.queue.LeasedJob;

/**
 * The partitions one broker owns, by key ({@code queueId/partition}) and by queue name. The by-queue index is rebuilt
 * whenever ownership changes, so a hand-out reads one immutable list.
 */
final class OwnedPartitions {

    private final Map<String, OwnedPartition> byKey = new ConcurrentHashMap<>();
    private volatile Map<String, List<OwnedPartition>> byQueue = Map.of();

    OwnedPartition get(String key) {
        return byKey.get(key);
    }

    boolean contains(String key) {
        return byKey.containsKey(key);
    }

    void put(OwnedPartition partition) {
        byKey.put(partition.partition().key(), partition);
        reindex();
    }

    /** Forgets the partition and returns it (null when it was not owned). */
    OwnedPartition remove(String key) {
        OwnedPartition removed = byKey.remove(key);
        reindex();
        return removed;
    }

    /** Forgets every partition and returns them. */
    List<OwnedPartition> removeAll() {
        List<OwnedPartition> all = new ArrayList<>(byKey.values());
        byKey.clear();
        reindex();
        return all;
    }

    /** A snapshot of the owned partitions. */
    Collection<OwnedPartition> all() {
        return List.copyOf(byKey.values());
    }

    /** The queue's owned partitions in partition order. */
    List<OwnedPartition> ofQueue(String queueName) {
        return byQueue.getOrDefault(queueName, List.of());
    }

    long countOf(long queueId) {
        return byKey.values().stream().filter(partition -> partition.partition().queueId() == queueId).count();
    }

    List<String> keys() {
        return byKey.keySet().stream().sorted().toList();
    }

    int buffered() {
        return byKey.values().stream().mapToInt(OwnedPartition::buffered).sum();
    }

    /** Jobs taken but not handed out go back to the front of their buffers. */
    void putBack(List<LeasedJob> jobs) {
        for (LeasedJob job : jobs) {
            OwnedPartition partition = byKey.get(job.partition().key());
            if (partition != null) {
                partition.putBack(job);
            }
        }
    }

    private synchronized void reindex() {
        Map<String, List<OwnedPartition>> index = new HashMap<>();
        byKey.values().forEach(partition -> index.computeIfAbsent(partition.queue().name(), name -> new ArrayList<>())
                .add(partition));
        index.replaceAll((name, list) -> list.stream()
                .sorted(Comparator.comparingInt(partition -> partition.partition().partition())).toList());
        byQueue = index;
    }
}
