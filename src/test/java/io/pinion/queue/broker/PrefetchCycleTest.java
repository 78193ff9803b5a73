package io.pinion.queue.broker;

import static io.pinion.queue.broker.BrokerTestSettings.DEMAND_WINDOW_MS;
import static io.pinion.queue.broker.BrokerTestSettings.POLL_MS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.pinion.queue.JobState;

/**
 * An owned partition's prefetch on a virtual clock: it looks only when jobs are wanted, one look at a time, within
 * the buffer's count and bytes and the batch size; idle looks back off, an enqueue brings them back; a stopped
 * partition looks no more.
 */
class PrefetchCycleTest extends OwnedPartitionFixture {

    @Test
    void nothingIsFetchedUntilAWorkerAsksAndThenTheBufferFillsToItsCapacity() {
        OwnedPartition partition = open(false);
        table.insert(25, 2, 100);
        partition.tick(now());
        assertEquals(List.of(), table.reads, "nobody asked: no look");

        assertEquals(List.of(), partition.take(5, now()), "nothing buffered yet");
        assertEquals(List.of(), table.reads, "the refill waits until the hand-out is over");
        loop.runAll();
        assertEquals(10, partition.buffered(), "filled to the capacity");
        assertEquals(10, table.count(JobState.RUNNING));
        assertEquals(1, jobsArrived);
        assertEquals(5, partition.take(5, now()).size());
        partition.tick(now());
        assertEquals(5, partition.buffered(), "no refill at half the capacity");
        assertEquals(1, table.reads.size());
        assertEquals(1, partition.take(1, now()).size());
        partition.tick(now());
        assertEquals(10, partition.buffered(), "refilled below half");
        assertEquals(4.0, registry.get("pinion.queue.buffered").gauge().value(), "the gauge, before the refill");
    }

    @Test
    void aLookLeasesAtMostOneBatch() {
        settings.prefetchBatch = 4;
        OwnedPartition partition = openInApp(false);
        table.insert(10, 2, 100);
        int[] buffered = new int[3];
        for (int i = 0; i < 3; i++) {
            partition.tick(now());
            buffered[i] = partition.buffered();
        }
        assertEquals("[4, 8, 8]", java.util.Arrays.toString(buffered), "no look at half the capacity or above");
    }

    @Test
    void theBufferHoldsNoMoreBytesThanItsLimitPlusOneBody() {
        settings.bufferMaxBytes = 2_500;
        OwnedPartition partition = openInApp(false);
        table.insert(10, 2, 1_000);
        int[] buffered = new int[3];
        for (int i = 0; i < 3; i++) {
            partition.tick(now());
            buffered[i] = partition.buffered();
        }
        assertEquals("[2, 3, 3]", java.util.Arrays.toString(buffered));
        assertEquals(2, table.reads.size(), "no look once the buffer is full by bytes");
    }

    @Test
    void onlyOneLookRunsAtATime() {
        OwnedPartition partition = openInApp(false);
        table.insert(3, 2, 100);
        table.holdReads();
        partition.tick(now());
        partition.tick(now());
        partition.jobsEnqueued();
        partition.take(1, now());
        loop.runAll();
        assertEquals(1, table.reads.size(), "no second look while the first runs");

        table.answerHeld();
        assertEquals(3, partition.buffered());
        assertEquals(1, jobsArrived);
        partition.tick(now());
        assertEquals(2, table.reads.size(), "the next look once the first answered");
    }

    @Test
    void anIdlePartitionHandledInProcessLooksLessAndLessOftenAndAnEnqueueBringsItBack() {
        OwnedPartition partition = openInApp(false);
        for (int ms = 0; ms < 5_000; ms += 10) {
            partition.tick(now());
            loop.advance(10);
        }
        assertEquals(List.of(50L, 100L, 200L, 400L, 800L, 1_000L), gaps(table.reads).subList(0, 6));

        table.reads.clear();
        table.insert(1, 2, 100);
        partition.jobsEnqueued();
        loop.runAll();
        assertEquals(1, partition.buffered(), "looked at once");
        for (int ms = 0; ms < 400; ms += 10) {
            partition.tick(now());
            loop.advance(10);
        }
        assertEquals(List.of(0L, 50L, 100L, 200L), gaps(table.reads), "short waits again");
    }

    @Test
    void aPartitionServedToOutsideWorkersLooksEveryPollIntervalWhileTheyAsk() {
        OwnedPartition partition = open(false);
        long asked = now();
        partition.take(1, asked);
        loop.runAll();
        for (int ms = 0; ms < 2 * DEMAND_WINDOW_MS; ms += 10) {
            partition.tick(now());
            loop.advance(10);
        }
        assertTrue(gaps(table.reads).stream().allMatch(gap -> gap == POLL_MS), "every poll interval");
        assertEquals(DEMAND_WINDOW_MS / POLL_MS, table.reads.size(), "and none after the demand window");
        assertTrue(table.reads.get(table.reads.size() - 1) < asked + DEMAND_WINDOW_MS);
    }

    @Test
    void aLookThatMissedAnEnqueueLooksAgainAtOnce() {
        OwnedPartition partition = openInApp(false);
        table.holdReads();
        partition.tick(now()); // reads an empty table
        table.insert(1, 2, 100);
        partition.jobsEnqueued();
        loop.runAll();
        table.answerHeld();
        assertEquals(1, loop.pending(), "it found nothing, but the enqueue may have come after it read");
        loop.runAll();
        assertEquals(1, partition.buffered());
    }

    @Test
    void aFailedLookWaitsFivePollIntervals() {
        OwnedPartition partition = openInApp(false);
        table.failNextRead(new IllegalStateException("no answer"));
        long failedAt = now();
        for (int ms = 0; ms < 400; ms += 10) {
            partition.tick(now());
            loop.advance(10);
        }
        assertEquals(List.of(failedAt, failedAt + 5 * POLL_MS), table.reads.subList(0, 2));
    }

    @Test
    void aStoppedPartitionReleasesWhatItsLastLookLeasedAndLooksNoMore() {
        OwnedPartition partition = openInApp(false);
        List<Long> ids = table.insert(3, 2, 100);
        table.holdReads();
        partition.tick(now());
        await(partition.stop(true));
        table.answerHeld();
        assertEquals(ids, table.released);
        assertEquals(3, table.count(JobState.PENDING));
        assertTrue(ids.stream().allMatch(id -> table.row(id).attempts == 0), "the attempts refunded");
        assertEquals(0, partition.buffered());
        assertEquals(0, jobsArrived);

        partition.tick(now());
        partition.jobsEnqueued();
        partition.take(5, now());
        loop.runAll();
        assertEquals(1, table.reads.size(), "no look after the stop");
    }
}
