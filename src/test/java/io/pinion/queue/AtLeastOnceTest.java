package io.pinion.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import io.pinion.TestApi;
import io.pinion.Wait;
import io.pinion.mysql.ShardSql;
import io.pinion.queue.broker.DequeueBroker;
import io.pinion.queue.broker.LocalBroker;
import io.pinion.stack.StackTest;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Two brokers share a queue; one dies abruptly while it holds leases (jobs in its buffer and jobs its worker took
 * but never acked). The survivor takes its partitions over once their leases expire: every job completes, none is
 * lost, and the only jobs that run twice are the ones whose lease died with the broker.
 */
@QuarkusTest
@StackTest
@Tag("fault")
class AtLeastOnceTest {

    private static final int JOBS = 10_000;

    @Inject
    ShardSql sql;
    @Inject
    LocalBroker local;
    @Inject
    JobAcks acks;

    @Test
    void aKilledBrokerLosesNoJobs() throws InterruptedException {
        String name = Queues.create("at-least-once", Map.of("partitions", 4, "leaseMs", 2000, "maxAttempts", 10,
                "retry", Map.of("kind", "fixed", "delayMs", 0)));
        Queue queue = local.context().registry().get(name).await().atMost(Duration.ofSeconds(5));
        DequeueBroker first = local.broker().orElseThrow();
        DequeueBroker second = TwoBrokers.startSecond(local.context());
        Map<String, Integer> runs = new HashMap<>();
        Set<String> lostWithTheBroker = new HashSet<>();
        try {
            TwoBrokers.awaitEvenSplit(first, second, queue.id(), 4);
            List<Map<String, Object>> jobs = new ArrayList<>();
            for (int i = 0; i < JOBS; i++) {
                jobs.add(Map.of("body", "job-" + i));
            }
            Queues.enqueue(TestApi.worker(), name, jobs);

            int fromSecond = 0;
            long deadline = System.currentTimeMillis() + 60_000;
            while (fromSecond < 2_000 && System.currentTimeMillis() < deadline) {
                fromSecond += work(second, name, runs, true);
                work(first, name, runs, true);
            }
            assertTrue(fromSecond >= 2_000, "the second broker served its share");
            // its worker takes a last batch and dies with it, unacked; its buffer still holds leased jobs
            List<LeasedJob> inHand = takeSome(second, name);
            inHand.forEach(job -> {
                runs.merge(job.id().toString(), 1, Integer::sum);
                lostWithTheBroker.add(job.id().toString());
            });
            assertFalse(inHand.isEmpty());
            second.kill();

            // the survivor works on while there is work; the dead broker's jobs come back as their leases expire
            Wait.within(deadline + 30_000 - System.currentTimeMillis(), () -> {
                while (succeeded(queue) < JOBS) {
                    if (work(first, name, runs, true) == 0) {
                        return false;
                    }
                }
                return true;
            }, () -> "every job completed (" + succeeded(queue) + " of " + JOBS + ")");
        } finally {
            second.kill();
        }
        assertEquals(JOBS, succeeded(queue), "every job completed");
        assertEquals(JOBS, runs.size(), "every job ran");
        Set<String> duplicates = new HashSet<>();
        runs.forEach((id, count) -> {
            if (count > 1) {
                duplicates.add(id);
            }
        });
        assertEquals(lostWithTheBroker, duplicates, "only jobs whose lease was lost ran twice");
        assertTrue(first.ownedPartitions().stream().filter(key -> key.startsWith(queue.id() + "/")).count() == 4,
                "the survivor owns every partition");
    }

    private List<LeasedJob> takeSome(DequeueBroker broker, String name) throws InterruptedException {
        AtomicReference<List<LeasedJob>> jobs = new AtomicReference<>(List.of());
        Wait.within(1_000, () -> {
            jobs.set(broker.take(name, 50));
            return !jobs.get().isEmpty();
        }, "jobs taken from the broker");
        return jobs.get();
    }

    /** Takes up to 200 jobs from the broker, "runs" them and acks them; returns how many. */
    private int work(DequeueBroker broker, String name, Map<String, Integer> runs, boolean ack) {
        List<LeasedJob> jobs = broker.take(name, 200);
        if (jobs.isEmpty()) {
            return 0;
        }
        List<Ack> done = new ArrayList<>();
        for (LeasedJob job : jobs) {
            runs.merge(job.id().toString(), 1, Integer::sum);
            done.add(new Ack(job.id(), job.attempt(), job.lease(), true, null, null));
        }
        if (ack) {
            List<AckResult> results = acks.ack(
                            done, queue -> io.smallrye.mutiny.Uni.createFrom().voidItem())
                    .await()
                    .atMost(Duration.ofSeconds(10));
            results.forEach(result -> assertEquals(AckResult.ACKED, result.result(), "ack of " + result.id()));
        }
        return jobs.size();
    }

    private long succeeded(Queue queue) {
        long total = 0;
        for (QueuePartition partition : queue.partitions()) {
            total += sql.query(partition.shard(), "SELECT COUNT(*) AS n FROM " + partition.table() + " WHERE state = 2",
                            io.vertx.mutiny.sqlclient.Tuple.tuple())
                    .await().atMost(Duration.ofSeconds(5)).iterator().next().getLong("n");
        }
        return total;
    }
}
