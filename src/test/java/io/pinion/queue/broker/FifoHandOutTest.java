package io.pinion.queue.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.pinion.queue.JobState;
import io.pinion.queue.LeasedJob;

/**
 * A FIFO partition's hand-out on a virtual clock: one job in flight, the next only once it is acked, put back, or
 * found finished; after a failure it waits for the retry before the jobs after it.
 */
class FifoHandOutTest extends OwnedPartitionFixture {

    private OwnedPartition partition;
    private List<Long> ids;

    private void threeJobsBuffered() {
        partition = openInApp(true);
        ids = table.insert(3, 2, 10);
        partition.tick(now());
        assertEquals(3, partition.buffered());
    }

    @Test
    void oneJobAtATimeInIdOrderTheNextOnceItIsAcked() {
        threeJobsBuffered();
        assertEquals(List.of(ids.get(0)), ids(partition.take(5, now())));
        assertEquals(List.of(), partition.take(5, now()), "the head is in flight");

        table.row(ids.get(0)).state = JobState.SUCCEEDED;
        int before = jobsArrived;
        partition.acked(Set.of(ids.get(0)), Set.of());
        assertEquals(before + 1, jobsArrived, "the broker is told the next can go");
        assertEquals(List.of(ids.get(1)), ids(partition.take(5, now())));
    }

    @Test
    void aHeadPutBackIsTheNextHandedOut() {
        threeJobsBuffered();
        LeasedJob head = partition.take(5, now()).get(0);
        partition.putBack(head);
        assertEquals(List.of(ids.get(0)), ids(partition.take(5, now())));
    }

    @Test
    void afterAFailedHeadItWaitsForTheRetryBeforeTheJobsAfterIt() {
        threeJobsBuffered();
        partition.take(5, now());
        FakePartitionTable.Row failed = table.row(ids.get(0));
        failed.state = JobState.PENDING; // the ack's retry: PENDING again, after the backoff
        failed.owner = null;
        failed.runAfter = now() + 1_000;
        partition.acked(Set.of(ids.get(0)), Set.of(ids.get(0)));
        assertEquals(ids.subList(1, 3), table.released, "the jobs after it go back");
        assertEquals(0, table.row(ids.get(1)).attempts);

        assertEquals(List.of(), partition.take(5, now()));
        loop.runAll();
        loop.advance(500);
        partition.tick(now());
        assertEquals(0, partition.buffered(), "nothing is due at the head yet");

        loop.advance(500);
        partition.tick(now());
        List<LeasedJob> next = partition.take(5, now());
        assertEquals(List.of(ids.get(0)), ids(next), "the retry first");
        assertEquals(2, next.get(0).attempt());
    }

    @Test
    void theHeadIsFreedWhenItsStateIsReadFinishedElsewhere() {
        threeJobsBuffered();
        long handedOut = now();
        partition.take(5, now());
        table.row(ids.get(0)).state = JobState.SUCCEEDED; // acked through another instance

        loop.advance(FifoHead.CHECK_MS - 1);
        partition.tick(now());
        assertEquals(List.of(), partition.take(5, now()), "not read again yet");

        loop.advance(handedOut + FifoHead.CHECK_MS - now());
        partition.tick(now());
        assertEquals(List.of(ids.get(1)), ids(partition.take(5, now())));
    }
}
