package io.pinion.queue.broker;

import java.util.concurrent.Executor;
import java.util.function.LongSupplier;

import io.pinion.queue.broker.pacing.SweepPacing;

/**
 * The state one owned partition's parts share, built once by {@link OwnedPartition}: its status, its buffer, its
 * FIFO head, when it sweeps, what it runs on, and how it tells the broker that jobs arrived. Every member is
 * thread-safe on its own terms (see each class).
 *
 * @param onJobs called, on whatever thread found them, when jobs can be handed out (never under a lock)
 */
record PartitionParts(PartitionStatus status, JobBuffer buffer, FifoHead head, SweepPacing sweeps,
        PartitionTable table, LongSupplier clock, Executor loop, Runnable onJobs) {

    PartitionParts(PartitionStatus status, JobBuffer buffer, SweepPacing sweeps, PartitionRuntime runtime,
            Runnable onJobs) {
        this(status, buffer, new FifoHead(), sweeps, runtime.table(), runtime.clock(), runtime.loop(), onJobs);
    }
}
