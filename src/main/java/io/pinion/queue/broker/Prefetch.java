package io.pinion.queue.broker;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntConsumer;
import java.util.function.LongSupplier;

import org.jboss.logging.Logger;

import io.pinion.queue.LeasedJob;
import io.pinion.queue.QueueConfig;
import io.pinion.queue.broker.pacing.FetchPacing;

/**
 * An owned partition's prefetch cycle: whether to look for due jobs now, the look ({@link PrefetchRead}), and its
 * jobs into the buffer. A look runs when the partition works (not stopped, still serving, not paused), the pacing
 * says it is due and wanted ({@link FetchPacing}), and the buffer has room by count and by bytes; at most
 * {@code pinion.queue.prefetch-batch} jobs at a time. Jobs that arrive after the partition stopped are released.
 *
 * <p>Thread contract: {@link #run} is called from the broker's tick timer and from the partition's event loop
 * ({@link #soon}: after a hand-out, an enqueue through this instance, a look that missed a wake-up); the hand-out
 * threads only read {@link #fetching}. At most one look runs at a time: the {@code fetching} flag is an
 * {@link AtomicBoolean} taken by compare-and-set before the statements and cleared in their answer, on the thread
 * that answers. No lock is held across the statements; the buffer and the pacing guard themselves.
 */
final class Prefetch {

    private static final Logger LOG = Logger.getLogger(OwnedPartition.class);

    private final PartitionParts parts;
    private final PrefetchRead read;
    private final LeaseRelease release;
    private final FetchPacing fetches;
    private final LongSupplier queueDemand;
    private final IntConsumer prefetched;
    private final int batchMax;
    private final AtomicBoolean fetching = new AtomicBoolean();

    /**
     * @param queueDemand when a worker last asked this broker for jobs of the queue (epoch ms)
     * @param prefetched told how many jobs each look that found some leased
     */
    Prefetch(PartitionParts parts, PrefetchRead read, LeaseRelease release, FetchPacing fetches,
            LongSupplier queueDemand, IntConsumer prefetched, int batchMax) {
        this.parts = parts;
        this.read = read;
        this.release = release;
        this.fetches = fetches;
        this.queueDemand = queueDemand;
        this.prefetched = prefetched;
        this.batchMax = batchMax;
    }

    /** The queue is handled in this process (its buffers are kept filled without dequeue calls), or no longer. */
    void alwaysDemand(boolean always) {
        fetches.alwaysDemand(always);
    }

    /** A worker asked the partition for jobs at {@code now}. */
    void demanded(long now) {
        fetches.demanded(now);
    }

    /** Whether jobs are wanted at {@code now}. */
    boolean hasDemand(long now) {
        return fetches.hasDemand(now, queueDemand.getAsLong());
    }

    /** Whether a look is running. */
    boolean fetching() {
        return fetching.get();
    }

    /** Jobs were enqueued through this instance: the next look is due, and it runs soon. */
    void woken() {
        fetches.woken();
        soon();
    }

    /** A look from the partition's event loop, at the time it runs. */
    void soon() {
        parts.loop().execute(() -> run(parts.clock().getAsLong()));
    }

    /** Looks for due jobs at {@code now} if the partition may and should (see the class comment). */
    void run(long now) {
        PartitionStatus status = parts.status();
        if (!status.canWork() || status.queue().config().paused() || !fetches.due(now) || !hasDemand(now)) {
            return;
        }
        boolean fifo = status.queue().config().fifo();
        JobBuffer buffer = parts.buffer();
        long room = buffer.freeBytes(status.maxBytes());
        int free = buffer.freeSlots(status.capacity());
        int wanted = fifo ? Math.min(free, byBytes(room, status.queue().config())) : free;
        if (wanted <= 0 || room <= 0 || !fetching.compareAndSet(false, true)) {
            return;
        }
        long wokenBefore = fetches.wakes();
        read.read(Math.min(wanted, batchMax), now, room)
                .subscribe().with(jobs -> found(jobs, now, wokenBefore), this::failed);
    }

    private void found(List<LeasedJob> jobs, long now, long wokenBefore) {
        fetching.set(false);
        if (parts.status().stopped()) {
            release.release(jobs);
            return;
        }
        if (jobs.isEmpty()) {
            if (fetches.foundNothing(now, wokenBefore)) {
                // jobs enqueued while this look ran may have come after it read: look again now
                soon();
            }
            return;
        }
        fetches.found();
        prefetched.accept(jobs.size());
        parts.buffer().addAll(jobs);
        parts.onJobs().run();
    }

    private void failed(Throwable failure) {
        fetching.set(false);
        fetches.failed(parts.clock().getAsLong());
        LOG.debugf("prefetch from %s failed: %s", parts.table().table(), failure.getMessage());
    }

    /**
     * How many more jobs fit in {@code room} bytes when every body is as large as the queue allows (a FIFO head is
     * read before its bodies' sizes are known), so the buffer stays within {@code pinion.queue.buffer-max-bytes}
     * plus one body. Other partitions pick their due jobs by their bodies' real sizes ({@link PartitionTable#due}).
     */
    private static int byBytes(long room, QueueConfig config) {
        if (room <= 0) {
            return 0;
        }
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, room / Math.max(1, config.maxBodyBytes())));
    }
}
