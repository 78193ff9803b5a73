package io.pinion.queue.broker;

import java.util.Set;

import org.jboss.logging.Logger;

import io.pinion.queue.JobState;

/**
 * Follows a FIFO partition's job in flight to its end, so the partition hands out the next: an ack seen by this
 * instance ends it at once; otherwise its state is read again every {@value FifoHead#CHECK_MS} ms and after a sweep
 * that expired leases (an ack through another instance, a lease that expired). A job that failed, or went back to
 * PENDING, is retried before the jobs after it: the buffer, read past it, is released and the head read again.
 *
 * <p>Thread contract: {@link #acked} runs on the thread that saw the acks, {@link #check} on the broker's tick timer,
 * {@link #swept} on the thread that answered the sweep; the state read answers on an event loop. The head guards
 * itself ({@link FifoHead}) and the state read is subscribed, never awaited: its answer frees the head only if that
 * job is still the one in flight. No lock is held while the state is read.
 */
final class FifoHeadWatch {

    private static final Logger LOG = Logger.getLogger(OwnedPartition.class);

    private final PartitionParts parts;
    private final LeaseRelease release;

    FifoHeadWatch(PartitionParts parts, LeaseRelease release) {
        this.parts = parts;
        this.release = release;
    }

    /** Acks seen by this instance: a FIFO partition moves on (or, after a failure, waits for the retry). */
    void acked(Set<Long> ids, Set<Long> failed) {
        FifoHead head = parts.head();
        long acked = head.ackedAmong(ids);
        if (acked != 0) {
            if (failed.contains(acked)) {
                release.release(parts.buffer().drain());
            }
            head.finished(acked);
            parts.onJobs().run();
        }
    }

    /** The periodic check at {@code now}: reads the state of the job in flight when it is due. */
    void check(long now) {
        long due = parts.head().checkDue(now);
        if (due != 0) {
            readState(due);
        }
    }

    /** A sweep returned {@code expired} leases: the job in flight may be among them. */
    void swept(int expired) {
        long current = parts.head().current();
        if (expired > 0 && current != 0) {
            readState(current);
        }
    }

    private void readState(long id) {
        FifoHead head = parts.head();
        parts.table().state(id).subscribe().with(state -> {
            if (state != JobState.RUNNING && head.current() == id) {
                if (state == JobState.PENDING) {
                    release.release(parts.buffer().drain());
                }
                head.finished(id);
                parts.onJobs().run();
            }
        }, failure -> LOG.debugf("FIFO head check on %s failed: %s", parts.table().table(), failure.getMessage()));
    }
}
