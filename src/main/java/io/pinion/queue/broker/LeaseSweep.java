package io.pinion.queue.broker;

import java.util.function.IntConsumer;

import io.smallrye.mutiny.Uni;

import io.pinion.queue.broker.pacing.SweepPacing;

/**
 * Returns an owned partition's expired leases to PENDING after the retry backoff, or to FAILED when their attempts
 * are spent, on the schedule of {@link SweepPacing}: every sweep interval while jobs are leased or found expired,
 * less and less often while the partition is idle. A sweep that expired leases has the FIFO head's state read again
 * ({@link FifoHeadWatch#swept}).
 *
 * <p>Thread contract: {@link #sweep} is called from the broker's sweep timer, one sweep of all partitions at a time
 * ({@link Housekeeping}); its answer runs on the thread that answers the statement. The pacing's fields are volatile
 * (the threads that lease mark it too); nothing here holds a lock.
 */
final class LeaseSweep {

    /** Shortest lease or lease extension the API grants; the sweep relies on it to use {@code by_state_time}. */
    static final long MIN_LEASE_MS = 1_000;

    private final PartitionParts parts;
    private final FifoHeadWatch watch;
    private final IntConsumer retried;

    /** @param retried told how many leases each sweep found expired */
    LeaseSweep(PartitionParts parts, FifoHeadWatch watch, IntConsumer retried) {
        this.parts = parts;
        this.watch = watch;
        this.retried = retried;
    }

    /** Sweeps at {@code now} if the partition works and a sweep is due; emits when done. */
    Uni<Void> sweep(long now) {
        PartitionStatus status = parts.status();
        SweepPacing sweeps = parts.sweeps();
        if (status.stopped() || !status.canWork() || !sweeps.due(now)) {
            return Uni.createFrom().voidItem();
        }
        boolean leased = sweeps.start();
        return parts.table().sweepExpired(now, status.queue().config().retry(), MIN_LEASE_MS)
                .invoke(expired -> {
                    retried.accept(expired);
                    watch.swept(expired);
                    // a partition that hands nothing out and finds nothing expired is swept less and less often
                    sweeps.swept(now, expired, leased);
                })
                .replaceWithVoid();
    }
}
