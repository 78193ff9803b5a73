package io.pinion.queue.broker;

import java.util.List;

import io.pinion.queue.JobState;
import io.pinion.queue.LeasedJob;
import io.pinion.queue.RetryPolicy;
import io.smallrye.mutiny.Uni;

/**
 * What an owned partition runs on its table: finding due jobs, leasing and releasing them, sweeping expired leases,
 * deleting finished jobs, measuring depth, reading one job's state. {@link PartitionSql} runs the statements; the
 * partition's parts know only this interface, so their state machines can be driven without a database.
 *
 * <p>Thread contract: every method returns at once with a {@link Uni} that does its I/O when subscribed; nothing
 * blocks the calling thread, and the answers may arrive on any thread (a Vert.x event loop for the SQL client).
 */
interface PartitionTable {

    /** A row at the head of a FIFO partition. */
    record HeadRow(long id, JobState state, long runAfter, String leaseOwner) {
    }

    /** Pending jobs and the earliest run_after among them (null when none). */
    record Depth(long pending, Long earliestRunAfter) {
    }

    /** Whether the table is known to have the lease columns (a lease from it has succeeded). */
    boolean isShaped();

    /** The table's name, for logs. */
    String table();

    /**
     * Up to {@code batch} due ids in hand-out order (priority, run_after, id); as many of them as fit in
     * {@code roomBytes} by their bodies' sizes, and always the first.
     */
    Uni<List<Long>> due(int batch, long now, long roomBytes);

    /** The unfinished rows of a FIFO partition from {@code floor} on, in id order. */
    Uni<List<HeadRow>> head(long floor, int limit);

    /** Leases the PENDING jobs among {@code ids} to this broker until {@code expires} and reads back those it got. */
    Uni<List<LeasedJob>> lease(List<Long> ids, long now, long expires, String queueName);

    /** Returns buffered (never handed out) jobs to PENDING and refunds the attempt they were charged. */
    Uni<Void> release(List<LeasedJob> jobs);

    /** Returns expired leases to PENDING after the retry backoff, or FAILED when attempts are spent; emits how many. */
    Uni<Integer> sweepExpired(long now, RetryPolicy retry, long minLeaseMs);

    /** Deletes up to {@code limit} finished jobs last updated before {@code before}; emits how many. */
    Uni<Integer> deleteFinished(long before, int limit);

    /** Pending jobs and the earliest run_after among them. */
    Uni<Depth> depth();

    /** The state of one job, or null when it is gone. */
    Uni<JobState> state(long id);
}
