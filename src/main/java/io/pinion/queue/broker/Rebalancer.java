package io.pinion.queue.broker;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiFunction;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

import org.jboss.logging.Logger;

import io.pinion.queue.Queue;
import io.pinion.queue.QueuePartition;
import io.smallrye.mutiny.Uni;

/**
 * One broker's heartbeat: it records the broker as live, renews its partition leases, then rebalances against the
 * live brokers and current partitions. Each queue's partitions are shared evenly (the remainder spread by rank and
 * queue id); a broker gives up partitions above its share (returning their buffered jobs first) and claims free or
 * expired ones up to its share, so a new broker gets its share within a heartbeat or two and a dead broker's
 * partitions move once its leases expire. Partitions taken over by another broker, or whose queue is gone, are
 * dropped without touching their jobs.
 */
final class Rebalancer {

    private static final Logger LOG = Logger.getLogger(Rebalancer.class);

    private final String id;
    private final String address;
    private final long startedAt = System.currentTimeMillis();
    private final BrokerContext context;
    private final OwnedPartitions owned;
    private final QueueRates rates;
    private final BooleanSupplier running;
    private final Predicate<String> inApp;
    private final BiFunction<Queue, QueuePartition, OwnedPartition> open;
    private final AtomicBoolean balancing = new AtomicBoolean();
    private volatile long lastHeartbeat;

    /**
     * @param inApp whether a queue is consumed in-process (its buffers are kept filled)
     * @param open makes the owned partition for a claimed one
     */
    Rebalancer(String id, String address, BrokerContext context, OwnedPartitions owned, QueueRates rates,
            BooleanSupplier running, Predicate<String> inApp, BiFunction<Queue, QueuePartition, OwnedPartition> open) {
        this.id = id;
        this.address = address;
        this.context = context;
        this.owned = owned;
        this.rates = rates;
        this.running = running;
        this.inApp = inApp;
        this.open = open;
    }

    long lastHeartbeat() {
        return lastHeartbeat;
    }

    /** Heartbeat, renew, then rebalance; skipped while the previous one is still running. */
    void heartbeat() {
        if (!running.getAsBoolean() || !balancing.compareAndSet(false, true)) {
            return;
        }
        long now = System.currentTimeMillis();
        long expires = now + context.settings().brokerLeaseTtl().toMillis();
        BrokerLeases leases = context.leases();
        leases.heartbeat(id, address, startedAt, now, expires)
                .flatMap(ignored -> leases.renew(id, expires))
                .invoke(() -> lastHeartbeat = now)
                .flatMap(ignored -> leases.live(now))
                .flatMap(brokers -> leases.partitions().flatMap(partitions -> rebalance(brokers, partitions, now, expires)))
                .subscribe().with(ignored -> balancing.set(false), failure -> {
                    balancing.set(false);
                    LOG.debugf("broker %s heartbeat failed: %s", id, failure.getMessage());
                });
    }

    /** Returns a partition's buffered jobs to PENDING and releases its lease. */
    Uni<Void> giveUp(OwnedPartition partition) {
        LOG.debugf("broker %s gives up %s", id, partition.partition().key());
        return partition.stop(true).flatMap(ignored -> context.leases().release(partition.partition(), id));
    }

    private Uni<Void> rebalance(List<BrokerLeases.Broker> brokers, List<QueuePartition> rows, long now, long expires) {
        if (!running.getAsBoolean()) {
            return Uni.createFrom().voidItem();
        }
        List<String> live = brokers.stream().map(BrokerLeases.Broker::id).toList();
        int rank = Math.max(0, live.indexOf(id));
        int brokerCount = Math.max(1, live.size());
        Set<String> mineInDb = new HashSet<>();
        Map<Long, List<QueuePartition>> byQueue = new HashMap<>();
        for (QueuePartition row : rows) {
            byQueue.computeIfAbsent(row.queueId(), key -> new ArrayList<>()).add(row);
            if (id.equals(row.owner())) {
                mineInDb.add(row.key());
            }
        }
        for (OwnedPartition partition : owned.all()) {
            if (!mineInDb.contains(partition.partition().key())
                    || context.registry().cachedById(partition.partition().queueId()).isEmpty()) {
                owned.remove(partition.partition().key());
                partition.stop(false);
            }
        }
        List<Uni<Void>> changes = new ArrayList<>();
        for (Map.Entry<Long, List<QueuePartition>> entry : byQueue.entrySet()) {
            Queue queue = context.registry().cachedById(entry.getKey()).orElse(null);
            if (queue != null) {
                changes.addAll(share(queue, entry.getValue(), rank, brokerCount, now, expires));
            }
        }
        return changes.isEmpty() ? Uni.createFrom().voidItem() : Uni.join().all(changes).andCollectFailures().replaceWithVoid();
    }

    /** Gives up or claims the queue's partitions until this broker owns its share. */
    private List<Uni<Void>> share(Queue queue, List<QueuePartition> partitions, int rank, int brokerCount, long now,
            long expires) {
        List<Uni<Void>> changes = new ArrayList<>();
        int count = partitions.size();
        int target = count / brokerCount + (Math.floorMod(rank + queue.id(), brokerCount) < count % brokerCount ? 1 : 0);
        List<QueuePartition> mine = partitions.stream().filter(row -> owned.contains(row.key())).toList();
        for (QueuePartition row : mine) {
            owned.get(row.key()).update(queue, expires, inApp.test(queue.name()));
        }
        for (int k = mine.size() - 1; k >= target; k--) {
            changes.add(giveUp(owned.remove(mine.get(k).key())));
        }
        rates.apply(queue, owned.countOf(queue.id()));
        int missing = target - mine.size();
        for (QueuePartition row : partitions) {
            if (missing <= 0) {
                break;
            }
            boolean free = row.owner() == null || row.leaseExpires() < now || id.equals(row.owner());
            if (free && !owned.contains(row.key())) {
                missing--;
                changes.add(claim(queue, row, now, expires));
            }
        }
        return changes;
    }

    private Uni<Void> claim(Queue queue, QueuePartition row, long now, long expires) {
        return context.leases().claim(row, id, now, expires).invoke(won -> {
            if (won && running.getAsBoolean()) {
                OwnedPartition partition = open.apply(queue, row);
                partition.update(queue, expires, inApp.test(queue.name()));
                owned.put(partition);
                rates.apply(queue, owned.countOf(queue.id()));
                LOG.debugf("broker %s owns %s (queue %s)", id, row.key(), queue.name());
            }
        }).replaceWithVoid();
    }
}
