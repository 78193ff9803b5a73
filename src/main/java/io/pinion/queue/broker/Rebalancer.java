package io.pinion.queue.broker;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

import org.jboss.logging.Logger;

import io.pinion.queue.Queue;
import io.pinion.queue.QueuePartition;
import io.pinion.zookeeper.BrokerSeat;
import io.smallrye.mutiny.Uni;

/**
 * One broker's partition assignment, kept in ZooKeeper ({@link BrokerSeat}). Whenever the members change, an owner
 * znode it waits for goes away, the session comes back, or at every heartbeat, it computes its partitions from the
 * live members and the queues ({@link Assignment}), stops and releases those no longer its (returning their buffered
 * jobs first, so the next owner starts only after this one stopped), and claims the others. A partition claimed
 * before the connection was lost is served again only once claimed again. All of it runs on the broker's own
 * coordination thread: ZooKeeper's calls block.
 */
final class Rebalancer {

    /** Makes the owned partition for a claimed one; it may work while {@code serving} holds. */
    interface Opener {
        OwnedPartition open(Queue queue, QueuePartition partition, BooleanSupplier serving);
    }

    private static final Logger LOG = Logger.getLogger(Rebalancer.class);
    private static final Duration STOP_WAIT = Duration.ofSeconds(5);

    private final String id;
    private final String address;
    private final BrokerContext context;
    private final OwnedPartitions owned;
    private final QueueRates rates;
    private final Predicate<String> inApp;
    private final Opener opener;
    private final Tenures tenures = new Tenures();
    private final AtomicBoolean scheduled = new AtomicBoolean();
    private final ExecutorService thread;
    private volatile BrokerSeat seat;
    private volatile boolean running;
    private volatile long lastBalanced;
    /** For each queue, the addresses of the other brokers assigned partitions of it, as of the last balance. */
    private volatile Map<String, List<String>> peers = Map.of();

    Rebalancer(String id, String address, BrokerContext context, OwnedPartitions owned, QueueRates rates,
            Predicate<String> inApp, Opener opener) {
        this.id = id;
        this.address = address;
        this.context = context;
        this.owned = owned;
        this.rates = rates;
        this.inApp = inApp;
        this.opener = opener;
        this.thread = Executors.newSingleThreadExecutor(task -> {
            Thread coordination = new Thread(task, "pinion-broker-" + id);
            coordination.setDaemon(true);
            return coordination;
        });
    }

    /** Takes a seat in the cluster; the partitions follow as soon as the session is up. */
    void start() {
        running = true;
        seat = context.seats().open(id, address, context.settings().brokerSessionTimeout(), new BrokerSeat.Listener() {
            @Override
            public void changed() {
                schedule();
            }

            @Override
            public void lost() {
                schedule(); // hand-outs already stopped (the epoch moved); this drops the partitions
            }
        });
        schedule();
    }

    /** Rebalances soon on the coordination thread; coalesces with one already waiting. */
    void schedule() {
        if (running && scheduled.compareAndSet(false, true)) {
            try {
                thread.execute(() -> {
                    scheduled.set(false);
                    balance();
                });
            } catch (java.util.concurrent.RejectedExecutionException stopped) {
                scheduled.set(false);
            }
        }
    }

    /** When this broker last completed a rebalance with ZooKeeper (epoch ms; 0 before the first). */
    long lastBalanced() {
        return lastBalanced;
    }

    boolean connected() {
        BrokerSeat current = seat;
        return current != null && current.connected();
    }

    List<Tenures.Tenure> tenures() {
        return tenures.all();
    }

    /**
     * Clean stop: every partition stops (buffered jobs back to PENDING) and is released, then the session ends.
     * Completes when done.
     */
    CompletableFuture<Void> stop() {
        running = false;
        return CompletableFuture.runAsync(() -> {
            giveUp(owned.removeAll(), true);
            closeSeat();
        }, thread).whenComplete((ignored, failure) -> thread.shutdown());
    }

    /** Abrupt stop, as if the process died: nothing is written, the buffered jobs' leases are left to expire. */
    void kill() {
        running = false;
        owned.removeAll().forEach(partition -> {
            partition.stop(false);
            tenures.ended(partition.partition().key(), System.currentTimeMillis());
        });
        thread.shutdownNow();
        closeSeat();
    }

    private void balance() {
        BrokerSeat current = seat;
        if (!running || current == null) {
            return;
        }
        long epoch = current.epoch();
        try {
            List<OwnedPartition> lost = owned.all().stream().filter(partition -> !partition.serving()).toList();
            lost.forEach(partition -> owned.remove(partition.partition().key()));
            stopServing(lost, true); // their znodes may be gone: claimed again below if still ours
            if (!current.connected()) {
                return;
            }
            List<String> members = current.memberIds();
            if (!members.contains(id)) {
                return; // the member znode is on its way; its creation calls back
            }
            Map<String, Assignment.Target> mine = Assignment.of(id, members, context.registry().cached());
            peers = peers(members, current.addresses(members));
            List<OwnedPartition> moving = new ArrayList<>();
            List<OwnedPartition> deleted = new ArrayList<>();
            for (OwnedPartition partition : owned.all()) {
                String key = partition.partition().key();
                Queue queue = context.registry().cachedById(partition.partition().queueId()).orElse(null);
                if (queue == null || !mine.containsKey(key)) {
                    owned.remove(key);
                    (queue == null ? deleted : moving).add(partition);
                } else {
                    partition.update(queue, inApp.test(queue.name()));
                }
            }
            giveUp(moving, true);
            giveUp(deleted, false);
            for (Queue queue : context.registry().cached()) {
                rates.apply(queue, owned.countOf(queue.id()));
            }
            for (Map.Entry<String, Assignment.Target> entry : mine.entrySet()) {
                if (!owned.contains(entry.getKey()) && running && current.claim(entry.getKey())) {
                    take(entry.getValue(), current, epoch);
                }
            }
            lastBalanced = System.currentTimeMillis();
        } catch (Exception e) {
            LOG.debugf("broker %s could not rebalance now: %s", id, e.getMessage());
        }
    }

    /** The addresses of the other brokers assigned partitions of the queue (none known: empty). */
    List<String> peersFor(String queueName) {
        return peers.getOrDefault(queueName, List.of());
    }

    private Map<String, List<String>> peers(List<String> members, Map<String, String> addresses) {
        Map<String, List<String>> byQueue = new HashMap<>();
        for (Queue queue : context.registry().cached()) {
            List<String> others = Assignment.owners(queue.id(), queue.partitions().size(), members).values().stream()
                    .distinct().filter(member -> !member.equals(id)).map(addresses::get).filter(Objects::nonNull)
                    .sorted().toList();
            if (!others.isEmpty()) {
                byQueue.put(queue.name(), others);
            }
        }
        return Map.copyOf(byQueue);
    }

    private void take(Assignment.Target target, BrokerSeat current, long epoch) {
        Queue queue = target.queue();
        OwnedPartition partition = opener.open(queue, target.partition(), () -> current.holds(epoch));
        partition.update(queue, inApp.test(queue.name()));
        owned.put(partition);
        tenures.started(target.partition().key(), System.currentTimeMillis());
        rates.apply(queue, owned.countOf(queue.id()));
        LOG.debugf("broker %s serves %s (queue %s)", id, target.partition().key(), queue.name());
    }

    /**
     * Stops serving the partitions (all at once), then deletes their owner znodes so that the next owners may start.
     */
    private void giveUp(List<OwnedPartition> partitions, boolean returnBuffered) {
        stopServing(partitions, returnBuffered);
        for (OwnedPartition partition : partitions) {
            try {
                seat.release(partition.partition().key());
            } catch (Exception e) {
                LOG.debugf(
                        "broker %s could not release %s (its session's end will): %s",
                        id, partition.partition().key(), e.getMessage());
            }
        }
    }

    private void stopServing(List<OwnedPartition> partitions, boolean returnBuffered) {
        if (partitions.isEmpty()) {
            return;
        }
        try {
            Uni.join()
                    .all(partitions.stream()
                            .map(partition ->
                                    partition.stop(returnBuffered).onFailure().recoverWithNull())
                            .toList())
                    .andCollectFailures()
                    .await()
                    .atMost(STOP_WAIT);
        } catch (RuntimeException e) {
            LOG.debugf(
                    "broker %s stopping %d partitions: %s (the jobs' leases expire)",
                    id, partitions.size(), e.getMessage());
        }
        long now = System.currentTimeMillis();
        partitions.forEach(partition -> tenures.ended(partition.partition().key(), now));
        LOG.debugf("broker %s stopped serving %d partitions", id, partitions.size());
    }

    private void closeSeat() {
        BrokerSeat current = seat;
        if (current != null) {
            current.close();
        }
    }
}
