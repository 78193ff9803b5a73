package io.pinion.queue.broker;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import org.jboss.logging.Logger;

import io.pinion.queue.JobsAcked;
import io.pinion.queue.LeasedJob;
import io.pinion.queue.Queue;
import io.pinion.queue.QueuePartition;
import io.smallrye.mutiny.Uni;

/**
 * A dequeue broker (Pacer): owns a fair share of every queue's partitions through expiring leases in MySQL,
 * keeps a prefetched buffer per owned partition, and hands jobs out of those buffers. Every heartbeat it renews
 * its leases, gives up partitions above its share (returning their buffered jobs first) and claims free or
 * expired ones up to its share, so a new broker gets its share within a heartbeat or two and a dead broker's
 * partitions move once its leases expire.
 *
 * <p>Each application instance runs one (see {@link LocalBroker}); tests run several in one process.
 */
public final class DequeueBroker {

    private static final Logger LOG = Logger.getLogger(DequeueBroker.class);

    private final String id;
    private final String address;
    private final long startedAt = System.currentTimeMillis();
    private final BrokerContext context;
    private final Map<String, OwnedPartition> owned = new ConcurrentHashMap<>();
    private final Map<String, ConcurrentLinkedQueue<Runnable>> waiters = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> turns = new ConcurrentHashMap<>();
    /** The owned partitions by queue name, rebuilt whenever ownership changes, so a hand-off reads one list. */
    private volatile Map<String, List<OwnedPartition>> byQueue = Map.of();
    private final Map<String, TokenBucket> buckets = new ConcurrentHashMap<>();
    private final Map<String, Long> demandAt = new ConcurrentHashMap<>();
    private final Set<String> handledInApp = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean balancing = new AtomicBoolean();
    private final AtomicBoolean sweeping = new AtomicBoolean();
    private final List<Long> timers = new ArrayList<>();
    private volatile Consumer<String> jobsAvailable = queue -> {
    };
    private volatile long lastHeartbeat;
    private volatile boolean running;

    public DequeueBroker(String id, String address, BrokerContext context) {
        this.id = id;
        this.address = address;
        this.context = context;
    }

    public String id() {
        return id;
    }

    /** Starts heartbeating and working; the first heartbeat runs at once. */
    public synchronized void start() {
        running = true;
        var settings = context.settings();
        timers.add(context.vertx().setPeriodic(1, settings.heartbeatInterval().toMillis(), ignored -> heartbeat()));
        timers.add(context.vertx().setPeriodic(settings.pollInterval().toMillis(), ignored -> tick()));
        timers.add(context.vertx().setPeriodic(settings.sweepInterval().toMillis(), ignored -> sweep()));
        timers.add(context.vertx().setPeriodic(settings.gcInterval().toMillis(),
                ignored -> each(partition -> partition.collectGarbage(System.currentTimeMillis()))));
        timers.add(context.vertx().setPeriodic(settings.statsInterval().toMillis(),
                ignored -> each(partition -> partition.measure(System.currentTimeMillis()))));
    }

    /** Clean stop: buffered jobs go back to PENDING, partitions are released, the heartbeat row is removed. */
    public Uni<Void> stop() {
        cancelTimers();
        List<Uni<Void>> releases = new ArrayList<>();
        for (OwnedPartition partition : new ArrayList<>(owned.values())) {
            owned.remove(partition.partition().key());
            reindex();
            releases.add(partition.stop(true)
                    .flatMap(ignored -> context.leases().release(partition.partition(), id))
                    .onFailure().recoverWithNull());
        }
        Uni<Void> released = releases.isEmpty() ? Uni.createFrom().voidItem()
                : Uni.join().all(releases).andCollectFailures().replaceWithVoid();
        return released.flatMap(ignored -> context.leases().leave(id)).onFailure().recoverWithNull();
    }

    /** Abrupt stop, as if the process died: nothing is written, leases and buffered jobs are left to expire. */
    public void kill() {
        cancelTimers();
        owned.values().forEach(partition -> partition.stop(false));
        owned.clear();
        reindex();
    }

    /** Called with a queue name whenever jobs of that queue arrive in a buffer. */
    public void onJobsAvailable(Consumer<String> listener) {
        jobsAvailable = listener;
    }

    /** Marks a queue as consumed in-process, so its buffers are kept filled without dequeue calls. */
    public void handleInApp(String queueName) {
        handledInApp.add(queueName);
    }

    /** Up to {@code max} jobs of the queue from the partitions this broker owns, without waiting. */
    public List<LeasedJob> take(String queueName, int max) {
        long started = System.nanoTime();
        demandAt.put(queueName, System.currentTimeMillis());
        List<OwnedPartition> partitions = byQueue.getOrDefault(queueName, List.of());
        if (partitions.isEmpty()) {
            return List.of();
        }
        long now = System.currentTimeMillis();
        TokenBucket bucket = buckets.get(queueName);
        int granted = bucket == null ? max : bucket.take(max);
        int start = Math.floorMod(turns.computeIfAbsent(queueName, name -> new AtomicInteger()).getAndIncrement(), partitions.size());
        List<LeasedJob> jobs = new ArrayList<>();
        for (int k = 0; k < partitions.size() && jobs.size() < granted; k++) {
            jobs.addAll(partitions.get((start + k) % partitions.size()).take(granted - jobs.size(), now));
        }
        if (bucket != null) {
            bucket.giveBack(granted - jobs.size());
        }
        if (!jobs.isEmpty()) {
            context.metrics().dequeued(queueName, jobs.size());
            context.metrics().handoff(queueName, System.nanoTime() - started);
        }
        return jobs;
    }

    /** Up to {@code max} jobs, waiting up to {@code waitMs} for the first to arrive. */
    public Uni<List<LeasedJob>> take(String queueName, int max, long waitMs) {
        List<LeasedJob> now = take(queueName, max);
        if (!now.isEmpty() || waitMs <= 0) {
            return Uni.createFrom().item(now);
        }
        long deadline = System.currentTimeMillis() + waitMs;
        return Uni.createFrom().emitter(emitter -> {
            AtomicBoolean done = new AtomicBoolean();
            long timer = context.vertx().setTimer(waitMs, ignored -> {
                if (done.compareAndSet(false, true)) {
                    emitter.complete(take(queueName, max));
                }
            });
            Runnable[] retry = new Runnable[1];
            retry[0] = () -> {
                if (done.get()) {
                    return;
                }
                List<LeasedJob> jobs = take(queueName, max);
                if (!jobs.isEmpty() || System.currentTimeMillis() >= deadline) {
                    if (done.compareAndSet(false, true)) {
                        context.vertx().cancelTimer(timer);
                        emitter.complete(jobs);
                    } else {
                        releaseUnclaimed(jobs);
                    }
                } else {
                    waiters.computeIfAbsent(queueName, name -> new ConcurrentLinkedQueue<>()).add(retry[0]);
                }
            };
            emitter.onTermination(() -> {
                done.set(true);
                ConcurrentLinkedQueue<Runnable> queue = waiters.get(queueName);
                if (queue != null) {
                    queue.remove(retry[0]); // an idle queue must not collect finished waiters
                }
            });
            retry[0].run();
        });
    }

    /** Acks seen by this instance. */
    public void acked(JobsAcked acked) {
        OwnedPartition partition = owned.get(acked.queueId() + "/" + acked.partition());
        if (partition != null) {
            partition.acked(acked.ids(), acked.failed());
        }
    }

    /** Keys ({@code queueId/partition}) of the partitions this broker owns. */
    public List<String> ownedPartitions() {
        return owned.keySet().stream().sorted().toList();
    }

    /** Jobs waiting in this broker's buffers. */
    public int buffered() {
        return owned.values().stream().mapToInt(OwnedPartition::buffered).sum();
    }

    public long lastHeartbeat() {
        return lastHeartbeat;
    }

    public boolean running() {
        return running;
    }

    private synchronized void reindex() {
        Map<String, List<OwnedPartition>> index = new HashMap<>();
        owned.values().forEach(partition -> index.computeIfAbsent(partition.queue().name(), name -> new ArrayList<>()).add(partition));
        index.replaceAll((name, list) -> list.stream()
                .sorted(Comparator.comparingInt(partition -> partition.partition().partition())).toList());
        byQueue = index;
    }

    private void releaseUnclaimed(List<LeasedJob> jobs) {
        // a waiter that lost the race to its own timeout: the jobs go back to the front of their buffers
        for (LeasedJob job : jobs) {
            OwnedPartition partition = owned.get(job.partition().key());
            if (partition != null) {
                partition.putBack(job);
            }
        }
    }

    private void wake(String queueName) {
        ConcurrentLinkedQueue<Runnable> queue = waiters.get(queueName);
        if (queue != null) {
            Runnable waiter;
            List<Runnable> woken = new ArrayList<>();
            while ((waiter = queue.poll()) != null) {
                woken.add(waiter);
            }
            woken.forEach(Runnable::run);
        }
        jobsAvailable.accept(queueName);
    }

    private void tick() {
        long now = System.currentTimeMillis();
        owned.values().forEach(partition -> partition.tick(now));
    }

    private void sweep() {
        if (sweeping.compareAndSet(false, true)) {
            long now = System.currentTimeMillis();
            List<Uni<Void>> sweeps = owned.values().stream().map(partition -> partition.sweep(now)
                    .onFailure().invoke(failure -> LOG.debugf("lease sweep of %s failed: %s",
                            partition.partition().table(), failure.getMessage()))
                    .onFailure().recoverWithNull()).toList();
            (sweeps.isEmpty() ? Uni.createFrom().voidItem() : Uni.join().all(sweeps).andCollectFailures().replaceWithVoid())
                    .subscribe().with(ignored -> sweeping.set(false), failure -> sweeping.set(false));
        }
    }

    private void each(java.util.function.Function<OwnedPartition, Uni<Void>> work) {
        owned.values().forEach(partition -> work.apply(partition).subscribe().with(ignored -> {
        }, failure -> LOG.debugf("housekeeping of %s failed: %s", partition.partition().table(), failure.getMessage())));
    }

    /** Heartbeat, renew, then rebalance against the live brokers and current partitions. */
    private void heartbeat() {
        if (!running || !balancing.compareAndSet(false, true)) {
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

    private Uni<Void> rebalance(List<BrokerLeases.Broker> brokers, List<QueuePartition> rows, long now, long expires) {
        if (!running) {
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
        // partitions taken over by someone else, or whose queue is gone: stop without touching their jobs
        for (OwnedPartition partition : new ArrayList<>(owned.values())) {
            if (!mineInDb.contains(partition.partition().key())
                    || context.registry().cachedById(partition.partition().queueId()).isEmpty()) {
                owned.remove(partition.partition().key());
                partition.stop(false);
            }
        }
        reindex();
        List<Uni<Void>> changes = new ArrayList<>();
        for (Map.Entry<Long, List<QueuePartition>> entry : byQueue.entrySet()) {
            Queue queue = context.registry().cachedById(entry.getKey()).orElse(null);
            if (queue == null) {
                continue;
            }
            List<QueuePartition> partitions = entry.getValue();
            int count = partitions.size();
            int target = count / brokerCount + (Math.floorMod(rank + queue.id(), brokerCount) < count % brokerCount ? 1 : 0);
            List<QueuePartition> mine = partitions.stream().filter(row -> owned.containsKey(row.key())).toList();
            for (QueuePartition row : mine) {
                owned.get(row.key()).update(queue, expires, handledInApp.contains(queue.name()));
            }
            for (int k = mine.size() - 1; k >= target; k--) {
                changes.add(giveUp(owned.remove(mine.get(k).key())));
                reindex();
            }
            applyRate(queue);
            int missing = target - mine.size();
            for (QueuePartition row : partitions) {
                if (missing <= 0) {
                    break;
                }
                boolean free = row.owner() == null || row.leaseExpires() < now || id.equals(row.owner());
                if (free && !owned.containsKey(row.key())) {
                    missing--;
                    changes.add(claim(queue, row, now, expires));
                }
            }
        }
        return changes.isEmpty() ? Uni.createFrom().voidItem() : Uni.join().all(changes).andCollectFailures().replaceWithVoid();
    }

    private Uni<Void> claim(Queue queue, QueuePartition row, long now, long expires) {
        return context.leases().claim(row, id, now, expires).invoke(won -> {
            if (won && running) {
                OwnedPartition partition = new OwnedPartition(context, id, row, queue, () -> wake(queue.name()),
                        () -> demandAt.getOrDefault(queue.name(), 0L));
                partition.update(queue, expires, handledInApp.contains(queue.name()));
                owned.put(row.key(), partition);
                reindex();
                applyRate(queue);
                LOG.debugf("broker %s owns %s (queue %s)", id, row.key(), queue.name());
            }
        }).replaceWithVoid();
    }

    /** This broker's share of the queue's rate: the rate times the share of its partitions it owns. */
    private void applyRate(Queue queue) {
        Double rate = queue.config().rateLimit();
        long mine = owned.values().stream().filter(partition -> partition.partition().queueId() == queue.id()).count();
        buckets.computeIfAbsent(queue.name(), key -> new TokenBucket())
                .setRate(rate == null ? -1 : rate * mine / queue.partitions().size());
    }

    private Uni<Void> giveUp(OwnedPartition partition) {
        LOG.debugf("broker %s gives up %s", id, partition.partition().key());
        return partition.stop(true).flatMap(ignored -> context.leases().release(partition.partition(), id));
    }

    private synchronized void cancelTimers() {
        running = false;
        timers.forEach(timer -> context.vertx().cancelTimer(timer));
        timers.clear();
    }
}
