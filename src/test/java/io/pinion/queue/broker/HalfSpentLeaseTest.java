package io.pinion.queue.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.pinion.queue.LeasedJob;

/**
 * Buffered jobs whose lease is half spent go back to PENDING without costing an attempt, at the tick or when a
 * hand-out finds them (then after it); a FIFO partition releases its whole buffer with them.
 */
class HalfSpentLeaseTest extends OwnedPartitionFixture {

    @Test
    void aTickReleasesJobsPastHalfTheirLeaseAndTheyComeBackWithAFreshOne() {
        OwnedPartition partition = openInApp(false);
        List<Long> ids = table.insert(3, 2, 100);
        partition.tick(now());
        loop.advance(LEASE_MS / 2);
        partition.tick(now());
        assertEquals(List.of(), table.released, "half the lease left is not less than half");

        loop.advance(1);
        partition.tick(now());
        assertEquals(ids, table.released);
        loop.advance(BrokerTestSettings.POLL_MAX_MS);
        partition.tick(now());
        List<LeasedJob> jobs = partition.take(5, now());
        assertEquals(ids, ids(jobs));
        for (LeasedJob job : jobs) {
            assertEquals(1, job.attempt(), "the release refunded the attempt");
            assertEquals(now() + LEASE_MS, job.leaseExpires(), "leased again just now");
        }
    }

    @Test
    void aHandOutSkipsHalfSpentJobsAndReleasesThemAfterIt() {
        OwnedPartition partition = openInApp(false);
        List<Long> older = table.insert(2, 2, 100);
        partition.tick(now());
        loop.advance(3_000);
        List<Long> newer = table.insert(2, 2, 100);
        partition.tick(now());
        assertEquals(4, partition.buffered());

        loop.advance(2_001);
        assertEquals(newer, ids(partition.take(4, now())));
        assertEquals(List.of(), table.released, "not during the hand-out");
        loop.runAll();
        assertEquals(older, table.released);
        assertTrue(older.stream().allMatch(id -> table.row(id).attempts == 1), "leased again at no cost");
    }

    @Test
    void aFifoPartitionWithAHalfSpentJobHandsOutNothingAndReleasesItsBuffer() {
        OwnedPartition partition = openInApp(true);
        List<Long> ids = table.insert(3, 2, 10);
        partition.tick(now());
        loop.advance(LEASE_MS / 2 + 1);
        assertEquals(List.of(), partition.take(1, now()));
        loop.runAll();
        assertEquals(ids, table.released, "the whole buffer, in order");
        assertEquals(List.of(ids.get(0)), ids(partition.take(1, now())), "the head read again, nothing in flight");
    }
}
