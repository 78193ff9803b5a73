package io.pinion.queue;

import java.util.List;

/**
 * A broker that takes jobs as they are written. An enqueue through an instance that owns one of the queue's
 * partitions, with room in that partition's buffer and demand for its jobs, writes the jobs already leased to the
 * broker and hands them to its buffer once the INSERT has committed, instead of writing them PENDING for the broker
 * to find, lease and read back: three statements and one durable commit fewer per prefetch. Only for jobs due now,
 * without dedupe keys, of a queue neither paused nor FIFO.
 */
public interface WriteLeases {

    /** Room in one owned partition's buffer for these jobs, or null when no partition of the queue takes them now. */
    Reservation reserve(Queue queue, List<NewJob> jobs);

    /** Room held in a partition's buffer until the jobs are written (or not). */
    interface Reservation {

        QueuePartition partition();

        /** The broker the jobs are written leased to. */
        String brokerId();

        /** How long the lease runs from the write. */
        long leaseMs();

        /**
         * The jobs were written leased to the broker: they join its buffer, or go back to PENDING when it no longer
         * owns the partition.
         */
        void written(List<LeasedJob> jobs);

        /** Nothing was written: the room is given back. */
        void cancel();
    }
}
