package io.pinion.queue.broker.pacing;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * When an owned partition looks for due jobs ({@code Prefetch}), as a state of its own: when the next
 * look may run, how many looks in a row found nothing, the wake-ups of enqueues through this instance, and demand.
 *
 * <ul>
 * <li><b>Demand</b>: a partition of a queue handled in this process always wants jobs; one served to outside workers
 * wants them while a worker asked within the demand window (of this partition, or of the queue on this broker).</li>
 * <li><b>Idle</b>: after a look that found nothing, the next waits the poll interval; a partition that always wants
 * jobs doubles the wait with every empty look, up to the longest poll interval.</li>
 * <li><b>Woken</b>: jobs enqueued through this instance make the next look due at once and the waits short again; a
 * look that found nothing while such jobs came looks again at once (they may have come after it read).</li>
 * <li><b>Failed</b>: a look that failed waits five poll intervals.</li>
 * </ul>
 * Read and written from the partition's event loop and from the threads that hand jobs out, hence volatile fields.
 */
public final class FetchPacing {

    private final long pollMs;
    private final long pollMaxMs;
    private final long demandWindowMs;
    private final AtomicLong wakes = new AtomicLong();
    private volatile boolean alwaysDemand;
    private volatile long lastDemand;
    private volatile long nextFetchAt;
    private volatile int emptyLooks;

    public FetchPacing(Duration poll, Duration pollMax, Duration demandWindow) {
        this.pollMs = poll.toMillis();
        this.pollMaxMs = Math.max(pollMs, pollMax.toMillis());
        this.demandWindowMs = demandWindow.toMillis();
    }

    /** The queue is handled in this process (always wants jobs), or no longer. */
    public void alwaysDemand(boolean always) {
        alwaysDemand = always;
    }

    /** A worker asked this partition for jobs. */
    public void demanded(long now) {
        lastDemand = now;
    }

    /**
     * Whether jobs are wanted: always, or a worker asked within the window (here, or of the queue at {@code
     * queueDemand}).
     */
    public boolean hasDemand(long now, long queueDemand) {
        return alwaysDemand || now - Math.max(lastDemand, queueDemand) < demandWindowMs;
    }

    /** Whether the next look may run now. */
    public boolean due(long now) {
        return now >= nextFetchAt;
    }

    /** The wake-ups so far, taken before a look to tell whether one came during it. */
    public long wakes() {
        return wakes.get();
    }

    /** Jobs were enqueued through this instance: the next look is due now, and the waits start short again. */
    public void woken() {
        wakes.incrementAndGet();
        emptyLooks = 0;
        nextFetchAt = 0;
    }

    /**
     * A look that started at {@code startedAt} found nothing. True when a wake-up came during it (look again now);
     * otherwise the next look waits ({@link #idleWait}).
     */
    public boolean foundNothing(long startedAt, long wakesBefore) {
        if (wakes.get() != wakesBefore) {
            return true;
        }
        nextFetchAt = startedAt + idleWait(emptyLooks++);
        return false;
    }

    /** A look found jobs: the waits start short again. */
    public void found() {
        emptyLooks = 0;
    }

    /** A look failed (the database did not answer): the next waits five poll intervals. */
    public void failed(long now) {
        nextFetchAt = now + pollMs * 5;
    }

    /** The wait after {@code looks} empty looks in a row. */
    public long idleWait(int looks) {
        return alwaysDemand ? Math.min(pollMaxMs, pollMs << Math.min(looks, 20)) : pollMs;
    }
}
