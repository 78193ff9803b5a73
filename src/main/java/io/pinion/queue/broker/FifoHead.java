package io.pinion.queue.broker;

import java.util.Set;

/**
 * The hand-out state of a FIFO partition: at most one job is in flight (handed out and not yet acked), and the
 * partition hands out the next only once it is acked, put back, or found no longer running. Also where the next read
 * of the partition's head starts ({@link #floor}): the id of the oldest unfinished job seen, so the read skips the
 * finished jobs before it until garbage collection removes them.
 *
 * <pre>
 *   idle     -- handedOut(id) --------------------------------------&gt;  in flight (id)
 *   in flight -- acked / putBack / finished(id), for that same id ---&gt;  idle
 * </pre>
 *
 * While a job is in flight, {@link #checkDue} says every {@value #CHECK_MS} ms that its state should be read again
 * (a lease that expired, an ack seen by another instance). Time is passed in by the caller.
 *
 * <p>Thread contract: called from the broker's hand-outs (request threads and event loops), the acks this instance
 * sees, and the partition's timer; every method is one {@code synchronized} step over three numbers, with no I/O.
 */
final class FifoHead {

    /** How often the state of the job in flight is read again. */
    static final long CHECK_MS = 200;

    private long inFlight;
    private long checkedAt;
    private long floor;

    /** Whether a job is in flight (nothing more may be handed out). */
    synchronized boolean busy() {
        return inFlight != 0;
    }

    /** The job just handed out at {@code now}. */
    synchronized void handedOut(long id, long now) {
        inFlight = id;
        checkedAt = now;
    }

    /**
     * The job {@code id} is over as far as this head is concerned (acked, put back, or found no longer running):
     * whether it was the one in flight, which the partition now forgets.
     */
    synchronized boolean finished(long id) {
        if (inFlight == 0 || inFlight != id) {
            return false;
        }
        inFlight = 0;
        return true;
    }

    /** The id in flight when it was acked in {@code ids}, else 0. */
    synchronized long ackedAmong(Set<Long> ids) {
        return inFlight != 0 && ids.contains(inFlight) ? inFlight : 0;
    }

    /** The id in flight when its state is due to be read again at {@code now} (and marks it read), else 0. */
    synchronized long checkDue(long now) {
        if (inFlight == 0 || now - checkedAt < CHECK_MS) {
            return 0;
        }
        checkedAt = now;
        return inFlight;
    }

    /** The id in flight, or 0. */
    synchronized long current() {
        return inFlight;
    }

    /** Where the next read of the head starts (an id; 0 from the first job). */
    synchronized long floor() {
        return floor;
    }

    /** The oldest unfinished job the last read of the head found. */
    synchronized void floorAt(long id) {
        floor = id;
    }

    /** Finished jobs were deleted: the next read starts from the first job again. */
    synchronized void resetFloor() {
        floor = 0;
    }
}
