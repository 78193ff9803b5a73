package io.pinion.queue.broker;

import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

import io.pinion.queue.LeasedJob;
import io.pinion.queue.Queue;
import io.pinion.queue.QueuePartition;
import io.pinion.queue.broker.pacing.FetchPacing;
import io.pinion.queue.broker.pacing.SweepPacing;
import io.smallrye.mutiny.Uni;

/**
 * A partition while this broker owns it. Only the owner reads the partition's due jobs, so prefetch never waits on
 * another reader's locks. This class wires the parts together and keeps the broker's view of them:
 * <ul>
 * <li>{@link Prefetch}: whether to look for due jobs, the look ({@link PrefetchRead}) and its jobs into the buffer
 * ({@link JobBuffer}); when it looks is {@link FetchPacing}'s state.</li>
 * <li>{@link HandOut}: buffered jobs out to workers, a FIFO partition's one at a time ({@link FifoHead}).</li>
 * <li>{@link FifoHeadWatch}: a FIFO partition's job in flight followed to its end.</li>
 * <li>{@link LeaseRelease}: buffered jobs back to PENDING without costing an attempt (half-spent leases).</li>
 * <li>{@link BufferReservations}: room for jobs enqueued through this instance and written leased to it.</li>
 * <li>{@link LeaseSweep}: expired leases back to PENDING or FAILED, on {@link SweepPacing}'s schedule.</li>
 * <li>{@link PartitionUpkeep}: finished jobs deleted, depth measured.</li>
 * </ul>
 *
 * <p>Thread contract: called by the broker from the threads that serve dequeues and enqueues, its timers, its
 * rebalance and the acks this instance sees, any number at once. It holds no mutable state of its own: the status
 * is volatile ({@link PartitionStatus}), each part states its own contract, no lock is held across a statement and
 * nothing blocks the calling thread; statements are subscribed or returned as {@link Uni}s.
 */
final class OwnedPartition {

    private final BrokerContext context;
    private final QueuePartition partition;
    private final PartitionParts parts;
    private final PartitionStatus status;
    private final JobBuffer buffer;
    private final LeaseRelease release;
    private final Prefetch prefetch;
    private final HandOut handOut;
    private final FifoHeadWatch watch;
    private final BufferReservations reservations;
    private final LeaseSweep sweep;
    private final PartitionUpkeep upkeep;

    /** @param serving whether the broker may serve the partition now (it holds its claim in ZooKeeper) */
    OwnedPartition(BrokerContext context, String brokerId, QueuePartition partition, Queue queue, Runnable onJobs,
            LongSupplier queueDemand, BooleanSupplier serving) {
        this(context, PartitionRuntime.of(context, partition, brokerId), brokerId, partition, queue, onJobs,
                queueDemand, serving);
    }

    /** A partition on the given table, clock and event loop (tests: a fake table and virtual time). */
    OwnedPartition(BrokerContext context, PartitionRuntime runtime, String brokerId, QueuePartition partition,
            Queue queue, Runnable onJobs, LongSupplier queueDemand, BooleanSupplier serving) {
        var settings = context.settings();
        this.context = context;
        this.partition = partition;
        this.status = new PartitionStatus(queue, serving, settings.bufferCapacity(), settings.bufferMaxBytes());
        this.buffer = new JobBuffer(queue.config().fifo());
        this.parts = new PartitionParts(status, buffer, new SweepPacing(settings.sweepInterval()), runtime, onJobs);
        this.release = new LeaseRelease(parts);
        FetchPacing fetches = new FetchPacing(settings.pollInterval(), settings.pollIntervalMax(),
                settings.demandWindow());
        this.prefetch = new Prefetch(parts, new PrefetchRead(parts, brokerId), release, fetches, queueDemand,
                jobs -> context.metrics().prefetched(jobs), settings.prefetchBatch());
        this.handOut = new HandOut(parts, prefetch, release);
        this.watch = new FifoHeadWatch(parts, release);
        this.reservations = new BufferReservations(parts, prefetch, release);
        this.sweep = new LeaseSweep(parts, watch,
                expired -> context.metrics().retried(status.queue().name(), expired));
        this.upkeep = new PartitionUpkeep(context, runtime.table(), partition.partition(), status::stopped);
    }

    QueuePartition partition() {
        return partition;
    }

    Queue queue() {
        return status.queue();
    }

    int buffered() {
        return buffer.size();
    }

    /** Puts back a job taken but not handed out; a FIFO head put back is the next to hand out, no longer in flight. */
    void putBack(LeasedJob job) {
        handOut.putBack(job);
    }

    /** Whether the broker still holds its claim on the partition (false from the moment its connection was lost). */
    boolean serving() {
        return status.serving();
    }

    /** New settings, from the broker's rebalance. */
    void update(Queue latest, boolean handledInApp) {
        status.update(latest);
        prefetch.alwaysDemand(handledInApp);
    }

    /** Up to {@code max} jobs from the buffer (the broker has already applied the rate limit). */
    List<LeasedJob> take(int max, long now) {
        return handOut.take(max, now);
    }

    /** Periodic work: drop stale buffered jobs, follow a FIFO head, keep the buffer filled. */
    void tick(long now) {
        if (status.stopped()) {
            return;
        }
        release.dropHalfSpent(now);
        watch.check(now);
        context.metrics().partitionGauge("buffered", status.queue().name(), partition.partition(), buffer.size());
        if (status.belowHalf(buffer.size())) {
            prefetch.run(now);
        }
    }

    /**
     * Holds room in the buffer for {@code jobs} jobs of {@code bytes} bytes about to be written leased to this broker;
     * false when the partition cannot take them now (not working, paused, FIFO, no demand, not yet known to have the
     * lease columns, or no room by count or bytes).
     */
    boolean reserve(int jobs, long bytes, long now) {
        return reservations.reserve(jobs, bytes, now);
    }

    /** Gives back room held by {@link #reserve}. */
    void unreserve(int jobs, long bytes) {
        reservations.unreserve(jobs, bytes);
    }

    /**
     * Jobs written leased to this broker, whose room was reserved: into the buffer, or back to PENDING when the
     * partition stopped meanwhile.
     */
    void written(List<LeasedJob> jobs, long bytes) {
        reservations.written(jobs, bytes);
    }

    /** Acks seen by this instance: a FIFO partition moves on (or, after a failure, waits for the retry). */
    void acked(Set<Long> ids, Set<Long> failed) {
        watch.acked(ids, failed);
    }

    /** Returns expired leases to PENDING after backoff, or FAILED when attempts are spent. */
    Uni<Void> sweep(long now) {
        return sweep.sweep(now);
    }

    /** Deletes finished jobs older than the queue's retention, a bounded amount per call. */
    Uni<Void> collectGarbage(long now) {
        return upkeep.collectGarbage(status.queue(), now, parts.head()::resetFloor);
    }

    /** Publishes pending depth and the age of the oldest due job. */
    Uni<Void> measure(long now) {
        return upkeep.measure(status.queue(), now);
    }

    /**
     * Jobs were just enqueued to this partition through this instance: look for them now rather than at the next
     * poll, and poll at the shortest interval again.
     */
    void jobsEnqueued() {
        prefetch.woken();
    }

    /** Stops handing out; a graceful stop returns buffered jobs to PENDING, an abrupt one leaves them to expire. */
    Uni<Void> stop(boolean graceful) {
        status.stop();
        context.metrics().forgetPartition(status.queue().name(), partition.partition());
        List<LeasedJob> left = buffer.close(); // jobs written leased after this are released, not buffered
        if (!graceful || left.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return parts.table().release(left);
    }
}
