package io.pinion.queue.broker;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import io.pinion.queue.JobsAcked;
import io.pinion.queue.JobsEnqueued;
import io.pinion.queue.LeasedJob;
import io.pinion.queue.NewJob;
import io.pinion.queue.Queue;
import io.pinion.queue.QueuePartition;
import io.pinion.queue.WriteLeases;
import io.smallrye.mutiny.Uni;

/**
 * A dequeue broker (Pacer): serves its share of every queue's partitions, assigned through ZooKeeper
 * ({@link Rebalancer}), keeps a prefetched buffer per owned partition ({@link OwnedPartition}), and hands jobs out of
 * those buffers, round-robin over the queue's partitions and within the queue's rate ({@link QueueRates}), at once
 * or after a wait ({@link LongPolls}). Its timers drive a periodic rebalance and the {@link Housekeeping}.
 *
 * <p>Each application instance runs one (see {@link LocalBroker}); tests run several in one process.
 */
public final class DequeueBroker {

    private final String id;
    private final BrokerContext context;
    private final OwnedPartitions owned = new OwnedPartitions();
    private final QueueRates rates = new QueueRates();
    private final LongPolls longPolls;
    private final Housekeeping housekeeping = new Housekeeping(owned);
    private final Rebalancer rebalancer;
    private final Map<String, AtomicInteger> turns = new ConcurrentHashMap<>();
    private final Map<String, Long> demandAt = new ConcurrentHashMap<>();
    private final Set<String> handledInApp = ConcurrentHashMap.newKeySet();
    private final List<Long> timers = new ArrayList<>();
    private volatile Consumer<String> jobsAvailable = queue -> {
    };
    private volatile boolean running;

    public DequeueBroker(String id, String address, BrokerContext context) {
        this.id = id;
        this.context = context;
        this.longPolls = new LongPolls(context.vertx());
        this.rebalancer = new Rebalancer(id, address, context, owned, rates, handledInApp::contains,
                (queue, row, serving) -> new OwnedPartition(context, id, row, queue, () -> jobsArrived(queue.name()),
                        () -> demandAt.getOrDefault(queue.name(), 0L), serving));
    }

    public String id() {
        return id;
    }

    /** Takes a seat in the cluster and starts working; partitions follow as soon as it has a session. */
    public synchronized void start() {
        running = true;
        var settings = context.settings();
        var vertx = context.vertx();
        rebalancer.start();
        timers.add(vertx.setPeriodic(settings.heartbeatInterval().toMillis(), ignored -> rebalancer.schedule()));
        timers.add(vertx.setPeriodic(settings.pollInterval().toMillis(), ignored -> housekeeping.tick()));
        timers.add(vertx.setPeriodic(settings.sweepInterval().toMillis(), ignored -> housekeeping.sweep()));
        timers.add(vertx.setPeriodic(settings.gcInterval().toMillis(), ignored -> housekeeping.collectGarbage()));
        timers.add(vertx.setPeriodic(settings.statsInterval().toMillis(), ignored -> housekeeping.measure()));
    }

    /**
     * Clean stop: buffered jobs go back to PENDING, then the partitions are released and the broker leaves the
     * cluster, so that the others take its partitions at once.
     */
    public Uni<Void> stop() {
        cancelTimers();
        return Uni.createFrom().completionStage(rebalancer::stop).onFailure().recoverWithNull();
    }

    /**
     * Abrupt stop, as close to a dead process as one process can make it: nothing is written (buffered jobs' leases
     * are left to expire) and the session ends, which frees the partitions.
     */
    public void kill() {
        cancelTimers();
        rebalancer.kill();
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
        List<OwnedPartition> partitions = owned.ofQueue(queueName);
        if (partitions.isEmpty()) {
            return List.of();
        }
        long now = System.currentTimeMillis();
        int granted = rates.grant(queueName, max);
        int start = Math.floorMod(turns.computeIfAbsent(queueName, name -> new AtomicInteger()).getAndIncrement(),
                partitions.size());
        List<LeasedJob> jobs = new ArrayList<>();
        for (int k = 0; k < partitions.size() && jobs.size() < granted; k++) {
            jobs.addAll(partitions.get((start + k) % partitions.size()).take(granted - jobs.size(), now));
        }
        rates.giveBack(queueName, granted - jobs.size());
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
        return longPolls.await(queueName, waitMs, () -> take(queueName, max), this::putBack);
    }

    /**
     * The addresses ({@code host:port}) of the other brokers assigned partitions of the queue, for a dequeue that
     * finds nothing here (see {@code PeerDequeues}); empty when this broker knows no other.
     */
    public List<String> peersFor(String queueName) {
        return rebalancer.peersFor(queueName);
    }

    /** Whether this broker serves partitions of the queue now. */
    public boolean serves(String queueName) {
        return !owned.ofQueue(queueName).isEmpty();
    }

    /** The instance is shutting down: every dequeue wait ends within {@code withinMs} (see {@link LongPolls#drain}). */
    public void drain(long withinMs) {
        longPolls.drain(withinMs);
    }

    /**
     * Jobs taken but not handed out (a long poll that timed out as they arrived) go back to the front of their
     * buffers; a FIFO head among them is the next to hand out again.
     */
    void putBack(List<LeasedJob> jobs) {
        owned.putBack(jobs);
    }

    /** Acks seen by this instance. */
    public void acked(JobsAcked acked) {
        OwnedPartition partition = owned.get(acked.queueId() + "/" + acked.partition());
        if (partition != null) {
            partition.acked(acked.ids(), acked.failed());
        }
    }

    /** Jobs were enqueued through this instance: the partition, if this broker owns it, looks for them at once. */
    public void enqueued(JobsEnqueued enqueued) {
        OwnedPartition partition = owned.get(enqueued.queueId() + "/" + enqueued.partition());
        if (partition != null) {
            partition.jobsEnqueued();
        }
    }

    /**
     * Room for these jobs in one of the queue's partitions this broker owns (in turn), to be written leased to it;
     * null when the jobs are not all due or no owned partition takes them now ({@link OwnedPartition#reserve}).
     */
    public WriteLeases.Reservation reserve(Queue queue, List<NewJob> jobs) {
        List<OwnedPartition> partitions = owned.ofQueue(queue.name());
        if (partitions.isEmpty() || queue.config().fifo() || queue.config().paused()) {
            return null;
        }
        long now = System.currentTimeMillis();
        long bytes = 0;
        for (NewJob job : jobs) {
            if (job.runAfter() > now || job.dedupeKey() != null) {
                return null;
            }
            bytes += job.body().length;
        }
        int start = Math.floorMod(turns.computeIfAbsent(queue.name(), name -> new AtomicInteger()).getAndIncrement(),
                partitions.size());
        for (int k = 0; k < partitions.size(); k++) {
            OwnedPartition partition = partitions.get((start + k) % partitions.size());
            if (partition.reserve(jobs.size(), bytes, now)) {
                return new Reserved(partition, jobs.size(), bytes, partition.queue().config().leaseMs());
            }
        }
        return null;
    }

    /** Room held in one owned partition; given back once, by the write or its failure. */
    private final class Reserved implements WriteLeases.Reservation {

        private final OwnedPartition partition;
        private final int jobs;
        private final long bytes;
        private final long leaseMs;
        private final java.util.concurrent.atomic.AtomicBoolean settled =
                new java.util.concurrent.atomic.AtomicBoolean();

        Reserved(OwnedPartition partition, int jobs, long bytes, long leaseMs) {
            this.partition = partition;
            this.jobs = jobs;
            this.bytes = bytes;
            this.leaseMs = leaseMs;
        }

        @Override
        public QueuePartition partition() {
            return partition.partition();
        }

        @Override
        public String brokerId() {
            return id;
        }

        @Override
        public long leaseMs() {
            return leaseMs;
        }

        @Override
        public void written(List<LeasedJob> leased) {
            if (settled.compareAndSet(false, true)) {
                partition.written(leased, bytes);
            }
        }

        @Override
        public void cancel() {
            if (settled.compareAndSet(false, true)) {
                partition.unreserve(jobs, bytes);
            }
        }
    }

    /** Keys ({@code queueId/partition}) of the partitions this broker owns. */
    public List<String> ownedPartitions() {
        return owned.keys();
    }

    /** Jobs waiting in this broker's buffers. */
    public int buffered() {
        return owned.buffered();
    }

    /** When the broker last completed a rebalance with ZooKeeper (epoch ms; 0 before the first). */
    public long lastBalanced() {
        return rebalancer.lastBalanced();
    }

    /** Whether the broker has its ZooKeeper session now (without it, it serves nothing). */
    public boolean connected() {
        return rebalancer.connected();
    }

    /** The broker's record of which partition it served when, the last {@value Tenures#KEPT}. */
    public List<Tenure> tenures() {
        return rebalancer.tenures().stream().map(t -> new Tenure(t.partition(), t.from(), t.until())).toList();
    }

    /** One partition ({@code queueId/partition}) served from {@code from} until {@code until} (null: still is). */
    public record Tenure(String partition, long from, Long until) {
    }

    public boolean running() {
        return running;
    }

    private void jobsArrived(String queueName) {
        longPolls.wake(queueName);
        jobsAvailable.accept(queueName);
    }

    private synchronized void cancelTimers() {
        running = false;
        timers.forEach(timer -> context.vertx().cancelTimer(timer));
        timers.clear();
    }
}
