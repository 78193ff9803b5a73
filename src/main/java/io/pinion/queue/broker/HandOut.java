package io.pinion.queue.broker;

import java.util.ArrayList;
import java.util.List;

import io.pinion.queue.LeasedJob;
import io.pinion.queue.QueueConfig;

/**
 * Hands an owned partition's buffered jobs out: up to what the broker granted, by priority; none while the partition
 * does not work or is paused. Jobs found half spent on the way are released instead ({@link LeaseRelease}), and a
 * buffer fallen below half its capacity is refilled after the hand-out ({@link Prefetch#soon}).
 *
 * <p>A FIFO partition hands out one job at a time ({@link FifoHead}): the next only once the previous is acked, put
 * back, or found no longer running ({@link FifoHeadWatch}). When a job of its buffer is half spent it hands out
 * nothing and releases the whole buffer, to read its head again in order.
 *
 * <p>Thread contract: {@link #take} runs on the threads that serve dequeues (request threads and event loops) and
 * {@link #putBack} on the thread whose long poll timed out, any number at once. The buffer guards itself. For a FIFO
 * partition the check that nothing is in flight and the hand-out are one step under this object's monitor, which
 * {@link #putBack} takes too, so a job put back and a take never both see the head free; the monitor is held for a
 * few pointer moves only: the release and the refill run later on the partition's event loop, and the broker is
 * told of a job put back after the monitor is left.
 */
final class HandOut {

    private final PartitionParts parts;
    private final Prefetch prefetch;
    private final LeaseRelease release;

    HandOut(PartitionParts parts, Prefetch prefetch, LeaseRelease release) {
        this.parts = parts;
        this.prefetch = prefetch;
        this.release = release;
    }

    /** Up to {@code max} jobs from the buffer at {@code now} (the broker has already applied the rate limit). */
    List<LeasedJob> take(int max, long now) {
        if (parts.status().queue().config().fifo()) {
            synchronized (this) {
                return takeOnce(max, now); // one job in flight: the check and the hand-off are one step
            }
        }
        return takeOnce(max, now);
    }

    /** Puts back a job taken but not handed out; a FIFO head put back is the next to hand out, no longer in flight. */
    void putBack(LeasedJob job) {
        boolean wasHead;
        synchronized (this) {
            parts.buffer().putBack(job);
            wasHead = parts.head().finished(job.id().value());
        }
        if (wasHead) {
            parts.onJobs().run();
        }
    }

    private List<LeasedJob> takeOnce(int max, long now) {
        prefetch.demanded(now);
        PartitionStatus status = parts.status();
        QueueConfig config = status.queue().config();
        if (!status.canWork() || config.paused() || max <= 0) {
            return List.of();
        }
        boolean fifo = status.queue().config().fifo();
        FifoHead head = parts.head();
        if (fifo && head.busy()) {
            return List.of();
        }
        List<LeasedJob> jobs = poll(fifo ? 1 : max, now, fifo);
        if (fifo && !jobs.isEmpty()) {
            head.handedOut(jobs.get(0).id().value(), now);
        }
        if (status.belowHalf(parts.buffer().size()) && !prefetch.fetching()) {
            prefetch.soon(); // refill after the hand-off, not during it
        }
        return jobs;
    }

    /** Up to {@code granted} jobs that are not half spent; those that are are released (FIFO: with the buffer). */
    private List<LeasedJob> poll(int granted, long now, boolean fifo) {
        List<LeasedJob> stale = new ArrayList<>();
        List<LeasedJob> jobs = parts.buffer().poll(granted, job -> release.halfSpent(job, now), stale);
        if (stale.isEmpty()) {
            return jobs;
        }
        if (fifo) {
            stale.addAll(jobs);
            stale.addAll(parts.buffer().drain());
            jobs = List.of();
        }
        release.releaseSoon(stale);
        return jobs;
    }
}
