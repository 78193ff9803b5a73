package io.pinion.queue.broker;

import java.util.List;

import org.jboss.logging.Logger;

import io.pinion.queue.LeasedJob;

/**
 * Gives buffered jobs back to PENDING without costing them an attempt: jobs whose lease is half spent (handing them
 * out would leave a worker too little of it), the buffer of a FIFO partition whose head must be read again, jobs
 * leased after the partition stopped. A release that fails is only logged: the leases expire and the sweep returns
 * the jobs.
 *
 * <p>Thread contract: called from the threads that hand out (request threads and event loops), the broker's timers
 * and the answers of its statements. It holds no state of its own; the buffer guards itself, and the release
 * statement is subscribed and never awaited. {@link #releaseSoon} defers the statement to the partition's event
 * loop, for callers in the middle of a hand-out.
 */
final class LeaseRelease {

    private static final Logger LOG = Logger.getLogger(OwnedPartition.class);

    private final PartitionParts parts;

    LeaseRelease(PartitionParts parts) {
        this.parts = parts;
    }

    /** Whether less than half of the job's lease is left at {@code now}. */
    boolean halfSpent(LeasedJob job, long now) {
        return job.leaseExpires() - now < parts.status().queue().config().leaseMs() / 2;
    }

    /**
     * Takes the half-spent jobs out of the buffer and releases them; a FIFO partition releases its whole buffer with
     * them, so that its head is read again in order.
     */
    void dropHalfSpent(long now) {
        List<LeasedJob> stale = parts.buffer().removeIf(job -> halfSpent(job, now));
        if (!stale.isEmpty()) {
            if (parts.status().queue().config().fifo()) {
                stale.addAll(parts.buffer().drain());
            }
            release(stale);
        }
    }

    /** Releases the jobs now (the statement is subscribed, not awaited). */
    void release(List<LeasedJob> jobs) {
        if (!jobs.isEmpty()) {
            parts.table().release(jobs).subscribe().with(ignored -> {
            }, failure -> LOG.debugf("releasing %d buffered jobs of %s failed (their leases will expire): %s",
                    jobs.size(), parts.table().table(), failure.getMessage()));
        }
    }

    /** Releases the jobs from the partition's event loop, after the caller's hand-out. */
    void releaseSoon(List<LeasedJob> jobs) {
        parts.loop().execute(() -> release(jobs));
    }
}
