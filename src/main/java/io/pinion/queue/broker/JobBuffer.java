package io.pinion.queue.broker;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.Predicate;

import io.pinion.queue.LeasedJob;
import io.pinion.queue.QueueConfig;

/**
 * The in-memory buffer of one owned partition: one deque per priority, so a priority-1 job prefetched later is
 * still handed out before buffered priority-2 and -3 jobs. Every operation holds the buffer's monitor for a few
 * pointer moves, so hand-off stays far below a millisecond and a job is never both handed out and released. It
 * counts the bytes of the bodies it holds, which bound the prefetch ({@code pinion.queue.buffer-max-bytes}).
 */
final class JobBuffer {

    private final List<ArrayDeque<LeasedJob>> byPriority = new ArrayList<>();
    private final boolean fifo;
    private int size;
    private long bytes;
    /** Room held for jobs being written leased to the broker, which arrive through {@link #addReserved}. */
    private int reservedJobs;
    private long reservedBytes;
    private boolean closed;

    /** A FIFO buffer keeps one deque in id order and ignores priorities. */
    JobBuffer(boolean fifo) {
        this.fifo = fifo;
        for (int p = QueueConfig.MIN_PRIORITY; p <= QueueConfig.MAX_PRIORITY; p++) {
            byPriority.add(new ArrayDeque<>());
        }
    }

    synchronized void addAll(List<LeasedJob> jobs) {
        for (LeasedJob job : jobs) {
            slot(job).addLast(job);
            bytes += job.body().length;
        }
        size += jobs.size();
    }

    /** Puts a job back at the front of its priority. */
    synchronized void putBack(LeasedJob job) {
        slot(job).addFirst(job);
        size++;
        bytes += job.body().length;
    }

    /** Up to {@code max} jobs by priority; jobs matching {@code stale} are moved to {@code staleOut} instead. */
    synchronized List<LeasedJob> poll(int max, Predicate<LeasedJob> stale, List<LeasedJob> staleOut) {
        List<LeasedJob> taken = new ArrayList<>(Math.min(max, size));
        for (ArrayDeque<LeasedJob> deque : byPriority) {
            while (taken.size() < max && !deque.isEmpty()) {
                LeasedJob job = deque.pollFirst();
                size--;
                bytes -= job.body().length;
                if (stale.test(job)) {
                    staleOut.add(job);
                } else {
                    taken.add(job);
                }
            }
        }
        return taken;
    }

    /** Removes and returns the jobs matching the predicate. */
    synchronized List<LeasedJob> removeIf(Predicate<LeasedJob> predicate) {
        List<LeasedJob> removed = new ArrayList<>();
        for (ArrayDeque<LeasedJob> deque : byPriority) {
            for (Iterator<LeasedJob> it = deque.iterator(); it.hasNext(); ) {
                LeasedJob job = it.next();
                if (predicate.test(job)) {
                    it.remove();
                    removed.add(job);
                    size--;
                    bytes -= job.body().length;
                }
            }
        }
        return removed;
    }

    List<LeasedJob> drain() {
        return removeIf(job -> true);
    }

    /** Empties the buffer for good: written-leased jobs arriving later are refused ({@link #addReserved}). */
    synchronized List<LeasedJob> close() {
        closed = true;
        return drain();
    }

    /**
     * Holds room for {@code jobs} jobs of {@code bytes} bytes about to be written leased to the broker; false when
     * the buffer is closed or they would not fit beside what it holds and has reserved.
     */
    synchronized boolean reserve(int jobs, long bytes, int capacity, long maxBytes) {
        if (closed || size + reservedJobs + jobs > capacity || this.bytes + reservedBytes + bytes > maxBytes) {
            return false;
        }
        reservedJobs += jobs;
        reservedBytes += bytes;
        return true;
    }

    synchronized void unreserve(int jobs, long bytes) {
        reservedJobs -= jobs;
        reservedBytes -= bytes;
    }

    /** Reserved jobs arrive; false (nothing added) when the buffer was closed meanwhile. */
    synchronized boolean addReserved(List<LeasedJob> jobs, long bytes) {
        unreserve(jobs.size(), bytes);
        if (closed) {
            return false;
        }
        addAll(jobs);
        return true;
    }

    /** Jobs that still fit by count, beside what is held and reserved. */
    synchronized int freeSlots(int capacity) {
        return capacity - size - reservedJobs;
    }

    /** Bytes that still fit, beside what is held and reserved. */
    synchronized long freeBytes(long maxBytes) {
        return maxBytes - bytes - reservedBytes;
    }

    private ArrayDeque<LeasedJob> slot(LeasedJob job) {
        return byPriority.get(fifo ? 0 : job.priority() - QueueConfig.MIN_PRIORITY);
    }

    synchronized int size() {
        return size;
    }

    /** The bodies' bytes held. */
    synchronized long bytes() {
        return bytes;
    }
}
