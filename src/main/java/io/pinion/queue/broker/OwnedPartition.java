package io.pinion.queue.broker;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

import org.jboss.logging.Logger;

import io.pinion.queue.JobState;
import io.pinion.queue.LeasedJob;
import io.pinion.queue.Queue;
import io.pinion.queue.QueuePartition;
import io.smallrye.mutiny.Uni;

/**
 * A partition while this broker owns it. Only the owner reads the partition's due jobs, so prefetch never waits
 * on another reader's locks: it picks due ids from the covering {@code due} index (priority, then run_after, then
 * id; strict id order for FIFO), leases them in one UPDATE (RUNNING, this broker, lease expiry, attempt + 1) and
 * reads their bodies back into the buffer. Buffered jobs whose lease is half spent are released to PENDING
 * without costing an attempt. Jobs enqueued through this instance may be written leased straight into the buffer
 * ({@link #reserve}). The owner also sweeps expired leases; deleting finished jobs and measuring depth are
 * {@link PartitionUpkeep}'s. When it looks for due jobs is {@link FetchPacing}'s state, when it sweeps
 * {@link SweepPacing}'s, a FIFO partition's one job in flight {@link FifoHead}'s.
 *
 * <p>A FIFO partition hands out one job at a time, the next only after the previous one is acked; a failure puts
 * the head back and the partition waits for its retry.
 */
final class OwnedPartition {

    private static final Logger LOG = Logger.getLogger(OwnedPartition.class);
    private static final int FIFO_BUFFER = 16;
    /** Shortest lease or lease extension the API grants; the sweep relies on it to use {@code by_state_time}. */
    static final long MIN_LEASE_MS = 1_000;

    private final BrokerContext context;
    private final String brokerId;
    private final QueuePartition partition;
    private final Runnable onJobs;
    private final LongSupplier queueDemand;
    private final JobBuffer buffer;
    private final PartitionSql statements;
    private final PartitionUpkeep upkeep;
    private final AtomicBoolean fetching = new AtomicBoolean();
    private final BooleanSupplier serving;
    private final FetchPacing fetches;
    private final SweepPacing sweeps;
    private volatile Queue queue;
    private volatile boolean stopped;
    private final FifoHead head = new FifoHead();

    /** @param serving whether the broker may serve the partition now (it holds its claim in ZooKeeper) */
    OwnedPartition(BrokerContext context, String brokerId, QueuePartition partition, Queue queue, Runnable onJobs,
            LongSupplier queueDemand, BooleanSupplier serving) {
        this.serving = serving;
        this.context = context;
        this.queueDemand = queueDemand;
        this.brokerId = brokerId;
        this.partition = partition;
        this.onJobs = onJobs;
        this.queue = queue;
        this.buffer = new JobBuffer(queue.config().fifo());
        this.statements = new PartitionSql(context.sql(), partition, brokerId);
        this.upkeep = new PartitionUpkeep(context, statements, partition.partition(), () -> stopped);
        this.fetches = new FetchPacing(context.settings().pollInterval(), context.settings().pollIntervalMax(),
                context.settings().demandWindow());
        this.sweeps = new SweepPacing(context.settings().sweepInterval());
    }

    QueuePartition partition() {
        return partition;
    }

    Queue queue() {
        return queue;
    }

    int buffered() {
        return buffer.size();
    }

    /** Puts back a job taken but not handed out; a FIFO head put back is the next to hand out, no longer in flight. */
    void putBack(LeasedJob job) {
        boolean wasHead;
        synchronized (this) {
            buffer.putBack(job);
            wasHead = head.finished(job.id().value());
        }
        if (wasHead) {
            onJobs.run();
        }
    }

    /** Whether the broker still holds its claim on the partition (false from the moment its connection was lost). */
    boolean serving() {
        return serving.getAsBoolean();
    }

    /** New settings, from the broker's rebalance. */
    void update(Queue latest, boolean handledInApp) {
        queue = latest;
        fetches.alwaysDemand(handledInApp);
    }

    /** Up to {@code max} jobs from the buffer (the broker has already applied the rate limit). */
    List<LeasedJob> take(int max, long now) {
        if (queue.config().fifo()) {
            synchronized (this) {
                return takeOnce(max, now); // one job in flight: the check and the hand-off are one step
            }
        }
        return takeOnce(max, now);
    }

    private List<LeasedJob> takeOnce(int max, long now) {
        fetches.demanded(now);
        if (!canWork() || queue.config().paused() || max <= 0) {
            return List.of();
        }
        boolean fifo = queue.config().fifo();
        if (fifo && head.busy()) {
            return List.of();
        }
        int granted = fifo ? 1 : max;
        List<LeasedJob> jobs = List.of();
        if (granted > 0) {
            List<LeasedJob> stale = new ArrayList<>();
            jobs = buffer.poll(granted, job -> stale(job, now), stale);
            if (!stale.isEmpty()) {
                if (fifo) {
                    jobs.forEach(job -> stale.add(job));
                    stale.addAll(buffer.drain());
                    jobs = List.of();
                }
                context.vertx().runOnContext(() -> release(stale));
            }
            if (fifo && !jobs.isEmpty()) {
                head.handedOut(jobs.get(0).id().value(), now);
            }
        }
        if (buffer.size() < capacity() / 2 && !fetching.get()) {
            // refill after the hand-off, not during it
            context.vertx().runOnContext(() -> prefetch(System.currentTimeMillis()));
        }
        return jobs;
    }

    /** Periodic work: drop stale buffered jobs, follow a FIFO head, keep the buffer filled. */
    void tick(long now) {
        if (stopped) {
            return;
        }
        List<LeasedJob> stale = buffer.removeIf(job -> stale(job, now));
        if (!stale.isEmpty()) {
            if (queue.config().fifo()) {
                stale.addAll(buffer.drain());
            }
            release(stale);
        }
        long due = head.checkDue(now);
        if (due != 0) {
            checkFifoHead(due);
        }
        context.metrics().partitionGauge("buffered", queue.name(), partition.partition(), buffer.size());
        if (buffer.size() < capacity() / 2) {
            prefetch(now);
        }
    }

    /**
     * Holds room in the buffer for {@code jobs} jobs of {@code bytes} bytes about to be written leased to this broker;
     * false when the partition cannot take them now (not working, paused, FIFO, no demand, not yet known to have the
     * lease columns, or no room by count or bytes).
     */
    boolean reserve(int jobs, long bytes, long now) {
        Queue current = queue;
        return !stopped
                && canWork()
                && !current.config().paused()
                && !current.config().fifo()
                && hasDemand(now)
                && statements.isShaped()
                && buffer.reserve(jobs, bytes, capacity(), context.settings().bufferMaxBytes());
    }

    /** Gives back room held by {@link #reserve}. */
    void unreserve(int jobs, long bytes) {
        buffer.unreserve(jobs, bytes);
    }

    /**
     * Jobs written leased to this broker, whose room was reserved: into the buffer, or back to PENDING when the
     * partition stopped meanwhile.
     */
    void written(List<LeasedJob> jobs, long bytes) {
        if (!buffer.addReserved(jobs, bytes)) {
            release(jobs);
            return;
        }
        sweeps.leased();
        onJobs.run();
    }

    /** Acks seen by this instance: a FIFO partition moves on (or, after a failure, waits for the retry). */
    void acked(Set<Long> ids, Set<Long> failed) {
        long acked = head.ackedAmong(ids);
        if (acked != 0) {
            if (failed.contains(acked)) {
                release(buffer.drain());
            }
            head.finished(acked);
            onJobs.run();
        }
    }

    /** Returns expired leases to PENDING after backoff, or FAILED when attempts are spent. */
    Uni<Void> sweep(long now) {
        if (stopped || !canWork() || !sweeps.due(now)) {
            return Uni.createFrom().voidItem();
        }
        boolean leased = sweeps.start();
        return statements.sweepExpired(now, queue.config().retry(), MIN_LEASE_MS)
                .invoke(expired -> {
                    context.metrics().retried(queue.name(), expired);
                    long current = head.current();
                    if (expired > 0 && current != 0) {
                        checkFifoHead(current);
                    }
                    // a partition that hands nothing out and finds nothing expired is swept less and less often
                    sweeps.swept(now, expired, leased);
                })
                .replaceWithVoid();
    }

    /** Deletes finished jobs older than the queue's retention, a bounded amount per call. */
    Uni<Void> collectGarbage(long now) {
        return upkeep.collectGarbage(queue, now, head::resetFloor);
    }

    /** Publishes pending depth and the age of the oldest due job. */
    Uni<Void> measure(long now) {
        return upkeep.measure(queue, now);
    }

    /**
     * Jobs were just enqueued to this partition through this instance: look for them now rather than at the next
     * poll, and poll at the shortest interval again.
     */
    void jobsEnqueued() {
        fetches.woken();
        context.vertx().runOnContext(() -> prefetch(System.currentTimeMillis()));
    }

    /** Stops handing out; a graceful stop returns buffered jobs to PENDING, an abrupt one leaves them to expire. */
    Uni<Void> stop(boolean graceful) {
        stopped = true;
        context.metrics().forgetPartition(queue.name(), partition.partition());
        List<LeasedJob> left = buffer.close(); // jobs written leased after this are released, not buffered
        if (!graceful || left.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return statements.release(left);
    }

    private void prefetch(long now) {
        if (!canWork() || queue.config().paused() || !fetches.due(now) || !hasDemand(now)) {
            return;
        }
        boolean fifo = queue.config().fifo();
        long room = buffer.freeBytes(context.settings().bufferMaxBytes());
        int free = buffer.freeSlots(capacity());
        int wanted = fifo ? Math.min(free, byBytes(room)) : free;
        if (wanted <= 0 || room <= 0 || !fetching.compareAndSet(false, true)) {
            return;
        }
        long wokenBefore = fetches.wakes();
        int batch = Math.min(wanted, context.settings().prefetchBatch());
        Uni<List<Long>> due = fifo ? dueFifo(batch, now) : statements.due(batch, now, room);
        due.flatMap(ids -> lease(ids, now))
                .subscribe().with(jobs -> {
                    fetching.set(false);
                    if (stopped) {
                        release(jobs);
                        return;
                    }
                    if (jobs.isEmpty()) {
                        if (fetches.foundNothing(now, wokenBefore)) {
                            // jobs enqueued while this look ran may have come after it read: look again now
                            context.vertx().runOnContext(() -> prefetch(System.currentTimeMillis()));
                        }
                        return;
                    }
                    fetches.found();
                    context.metrics().prefetched(jobs.size());
                    buffer.addAll(jobs);
                    onJobs.run();
                }, failure -> {
                    fetching.set(false);
                    fetches.failed(System.currentTimeMillis());
                    LOG.debugf("prefetch from %s failed: %s", statements.table(), failure.getMessage());
                });
    }

    /**
     * FIFO: the unbroken run of due PENDING jobs at the head of the partition, in id order, past the jobs this
     * broker already holds (in flight or buffered).
     */
    private Uni<List<Long>> dueFifo(int batch, long now) {
        return statements.head(head.floor(), batch + capacity()).map(rows -> {
            if (!rows.isEmpty()) {
                head.floorAt(rows.get(0).id());
            }
            return HandOutOrder.fifoRun(rows, brokerId, batch, now);
        });
    }

    /** Leases the ids to this broker and returns the jobs it got, in hand-out order. */
    private Uni<List<LeasedJob>> lease(List<Long> ids, long now) {
        if (ids.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return statements.lease(ids, now, now + queue.config().leaseMs(), queue.name()).map(jobs -> {
            sweeps.leased();
            List<LeasedJob> sorted = new ArrayList<>(jobs);
            sorted.sort(HandOutOrder.of(queue.config().fifo()));
            return sorted;
        });
    }

    private void checkFifoHead(long id) {
        statements.state(id).subscribe().with(state -> {
            if (state != JobState.RUNNING && head.current() == id) {
                if (state == JobState.PENDING) {
                    release(buffer.drain());
                }
                head.finished(id);
                onJobs.run();
            }
        }, failure -> LOG.debugf("FIFO head check on %s failed: %s", statements.table(), failure.getMessage()));
    }

    private void release(List<LeasedJob> jobs) {
        if (!jobs.isEmpty()) {
            statements.release(jobs).subscribe().with(ignored -> {
            }, failure -> LOG.debugf("releasing %d buffered jobs of %s failed (their leases will expire): %s",
                    jobs.size(), statements.table(), failure.getMessage()));
        }
    }

    private boolean canWork() {
        return !stopped && serving.getAsBoolean();
    }

    private boolean hasDemand(long now) {
        return fetches.hasDemand(now, queueDemand.getAsLong());
    }

    private boolean stale(LeasedJob job, long now) {
        return job.leaseExpires() - now < queue.config().leaseMs() / 2;
    }

    /**
     * How many more jobs fit in {@code room} bytes when every body is as large as the queue allows (a FIFO head is
     * read before its bodies' sizes are known), so the buffer stays within {@code pinion.queue.buffer-max-bytes}
     * plus one body. Other partitions pick their due jobs by their bodies' real sizes ({@link PartitionSql#due}).
     */
    private int byBytes(long room) {
        if (room <= 0) {
            return 0;
        }
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, room / Math.max(1, queue.config().maxBodyBytes())));
    }

    private int capacity() {
        return queue.config().fifo() ? Math.min(FIFO_BUFFER, context.settings().bufferCapacity())
                : context.settings().bufferCapacity();
    }
}
