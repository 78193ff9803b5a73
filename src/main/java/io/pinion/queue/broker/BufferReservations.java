package io.pinion.queue.broker;

import java.util.List;

import io.pinion.queue.LeasedJob;
import io.pinion.queue.Queue;

/**
 * Room in an owned partition's buffer for jobs enqueued through this instance and written leased to this broker
 * straight away, so they are handed out without a prefetch. Room is given only while the partition works, is
 * neither paused nor FIFO, has demand, its table is known to have the lease columns, and the jobs fit by count and
 * bytes beside what the buffer holds and has reserved. Jobs written after the partition stopped are released.
 *
 * <p>Thread contract: {@link #reserve} runs on the threads that write jobs (request threads and event loops),
 * {@link #unreserve} on those or on the thread that answers a failed INSERT, {@link #written} on the thread that
 * answers a successful one, any number at once. The room is
 * counted by the buffer under its own monitor ({@link JobBuffer#reserve}), so a reservation and a prefetch never
 * both take the last room; the status and pacing are volatile reads.
 */
final class BufferReservations {

    private final PartitionParts parts;
    private final Prefetch prefetch;
    private final LeaseRelease release;

    BufferReservations(PartitionParts parts, Prefetch prefetch, LeaseRelease release) {
        this.parts = parts;
        this.prefetch = prefetch;
        this.release = release;
    }

    /** Holds room for {@code jobs} jobs of {@code bytes} bytes at {@code now}; false when the partition cannot. */
    boolean reserve(int jobs, long bytes, long now) {
        PartitionStatus status = parts.status();
        Queue current = status.queue();
        return !status.stopped()
                && status.canWork()
                && !current.config().paused()
                && !current.config().fifo()
                && prefetch.hasDemand(now)
                && parts.table().isShaped()
                && parts.buffer().reserve(jobs, bytes, status.capacity(), status.maxBytes());
    }

    /** Gives back room held by {@link #reserve}. */
    void unreserve(int jobs, long bytes) {
        parts.buffer().unreserve(jobs, bytes);
    }

    /** The jobs were written: into the buffer, or back to PENDING when the partition stopped meanwhile. */
    void written(List<LeasedJob> jobs, long bytes) {
        if (!parts.buffer().addReserved(jobs, bytes)) {
            release.release(jobs);
            return;
        }
        parts.sweeps().leased();
        parts.onJobs().run();
    }
}
