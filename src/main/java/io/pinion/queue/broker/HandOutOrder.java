package io.pinion.queue.broker;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import io.pinion.queue.JobState;
import io.pinion.queue.LeasedJob;

/**
 * Which due jobs a partition takes and in what order it hands them out: priority, then due time, then id; a FIFO
 * partition strictly by id, and only the unbroken run of due pending jobs at its head.
 */
final class HandOutOrder {

    private static final Comparator<LeasedJob> BY_ID = Comparator.comparingLong((LeasedJob job) -> job.id().value());
    private static final Comparator<LeasedJob> BY_PRIORITY = Comparator.comparingInt(LeasedJob::priority)
            .thenComparingLong(LeasedJob::runAfter).thenComparingLong(job -> job.id().value());

    private HandOutOrder() {
    }

    static Comparator<LeasedJob> of(boolean fifo) {
        return fifo ? BY_ID : BY_PRIORITY;
    }

    /**
     * FIFO: of the partition's head rows in id order, the ids of the unbroken run of due PENDING jobs, up to
     * {@code batch}, past the jobs this broker already holds at the head.
     */
    static List<Long> fifoRun(List<PartitionTable.HeadRow> rows, String brokerId, int batch, long now) {
        List<Long> ids = new ArrayList<>();
        for (PartitionTable.HeadRow row : rows) {
            boolean mine = row.state() == JobState.RUNNING && brokerId.equals(row.leaseOwner());
            if (mine && ids.isEmpty()) {
                continue;
            }
            if (row.state() != JobState.PENDING || row.runAfter() > now || ids.size() == batch) {
                break;
            }
            ids.add(row.id());
        }
        return ids;
    }
}
