package io.pinion.queue.broker;

import java.util.ArrayList;
import java.util.List;

import io.pinion.queue.LeasedJob;
import io.pinion.queue.Queue;
import io.pinion.queue.broker.pacing.SweepPacing;
import io.smallrye.mutiny.Uni;

/**
 * One look of a prefetch: which due jobs it takes and leasing them. A partition picks its due ids by priority, due
 * time and id, as many as fit in the buffer's free bytes by their bodies' real sizes; a FIFO partition takes the
 * unbroken run of due PENDING jobs at its head, past the jobs this broker already holds, and remembers where that
 * head starts ({@link FifoHead#floorAt}). The ids are leased in one UPDATE (RUNNING, this broker, lease expiry,
 * attempt + 1) and the jobs it got come back in hand-out order ({@link HandOutOrder}).
 *
 * <p>Thread contract: {@link #read} is called by {@link Prefetch}, one look at a time; it only builds the
 * statements' {@link Uni}s, and its steps after each statement run on the thread that answers (an event loop). The
 * FIFO floor is {@link FifoHead}'s and guarded there; the sweep's mark is a volatile write ({@link SweepPacing}).
 */
final class PrefetchRead {

    private final PartitionParts parts;
    private final String brokerId;

    PrefetchRead(PartitionParts parts, String brokerId) {
        this.parts = parts;
        this.brokerId = brokerId;
    }

    /** Leases up to {@code batch} due jobs that fit in {@code room} bytes; emits the jobs got, in hand-out order. */
    Uni<List<LeasedJob>> read(int batch, long now, long room) {
        Uni<List<Long>> due = parts.status().queue().config().fifo()
                ? dueFifo(batch, now)
                : parts.table().due(batch, now, room);
        return due.flatMap(ids -> lease(ids, now));
    }

    /**
     * FIFO: the unbroken run of due PENDING jobs at the head of the partition, in id order, past the jobs this
     * broker already holds (in flight or buffered).
     */
    private Uni<List<Long>> dueFifo(int batch, long now) {
        FifoHead head = parts.head();
        return parts.table().head(head.floor(), batch + parts.status().capacity()).map(rows -> {
            if (!rows.isEmpty()) {
                head.floorAt(rows.get(0).id());
            }
            return HandOutOrder.fifoRun(rows, brokerId, batch, now);
        });
    }

    /** Leases the ids to this broker and returns the jobs it got, in hand-out order. */
    private Uni<List<LeasedJob>> lease(List<Long> ids, long now) {
        if (ids.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        Queue queue = parts.status().queue();
        return parts.table().lease(ids, now, now + queue.config().leaseMs(), queue.name()).map(jobs -> {
            parts.sweeps().leased();
            List<LeasedJob> sorted = new ArrayList<>(jobs);
            sorted.sort(HandOutOrder.of(parts.status().queue().config().fifo()));
            return sorted;
        });
    }
}
