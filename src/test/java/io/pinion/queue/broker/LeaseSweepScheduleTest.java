package io.pinion.queue.broker;

import static io.pinion.queue.broker.BrokerTestSettings.SWEEP_MS;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.pinion.queue.JobState;
import io.pinion.queue.LeasedJob;

/**
 * When an owned partition sweeps its expired leases, on a virtual clock: at once, then every interval while it
 * leases, less and less often while idle; never once stopped or lost. A sweep that expires the FIFO head's lease
 * frees the head.
 */
class LeaseSweepScheduleTest extends OwnedPartitionFixture {

    private void sweepEvery50msFor(OwnedPartition partition, long ms) {
        for (long t = 0; t < ms; t += 50) {
            await(partition.sweep(now()));
            loop.advance(50);
        }
    }

    @Test
    void aNewPartitionSweepsAtOnceThenLessAndLessOftenWhileIdle() {
        OwnedPartition partition = open(false);
        long opened = now();
        sweepEvery50msFor(partition, 30_000);
        assertEquals(opened, table.sweeps.get(0));
        assertEquals(List.of(SWEEP_MS, 2 * SWEEP_MS, 4 * SWEEP_MS, 8 * SWEEP_MS, 16 * SWEEP_MS, 20 * SWEEP_MS,
                20 * SWEEP_MS), gaps(table.sweeps).subList(0, 7));
    }

    @Test
    void leasingBringsTheBaseIntervalBack() {
        OwnedPartition partition = openInApp(false);
        sweepEvery50msFor(partition, 20_000);
        table.sweeps.clear();
        table.insert(1, 2, 100);
        partition.tick(now());
        loop.advance(20 * SWEEP_MS);
        sweepEvery50msFor(partition, 20 * SWEEP_MS);
        assertEquals(List.of(SWEEP_MS, 2 * SWEEP_MS), gaps(table.sweeps).subList(0, 2), "base interval, then idle");
    }

    @Test
    void aStoppedOrLostPartitionDoesNotSweep() {
        OwnedPartition lost = open(false);
        serving = false;
        await(lost.sweep(now()));
        serving = true;
        OwnedPartition stopped = open(false);
        await(stopped.stop(false));
        await(stopped.sweep(now()));
        assertEquals(List.of(), table.sweeps);
    }

    @Test
    void aSweepThatExpiresTheFifoHeadsLeaseFreesTheHeadForItsRetry() {
        OwnedPartition partition = openInApp(true);
        List<Long> ids = table.insert(2, 2, 10);
        partition.tick(now());
        partition.take(1, now());
        int before = jobsArrived;

        loop.advance(LEASE_MS);
        await(partition.sweep(now()));
        assertEquals(JobState.PENDING, table.row(ids.get(0)).state);
        assertEquals(before + 1, jobsArrived, "the head is free");
        assertEquals(0, partition.buffered(), "the jobs after it are read again after the retry");

        loop.advance(FakePartitionTable.RETRY_DELAY_MS);
        partition.tick(now());
        List<LeasedJob> next = partition.take(1, now());
        assertEquals(List.of(ids.get(0)), ids(next));
        assertEquals(2, next.get(0).attempt(), "an expired lease costs its attempt");
    }
}
