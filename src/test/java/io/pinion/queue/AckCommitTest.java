package io.pinion.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.pinion.id.ObjectType;
import io.pinion.id.PinionId;
import io.smallrye.mutiny.Uni;

/**
 * The ack lanes: a lone ack goes at once; acks of one partition that arrive while its UPDATE is in flight go together
 * in the next one, each caller getting its own results in order; a call naming a job the next UPDATE already carries
 * waits for the one after; a failed UPDATE fails exactly the calls it carried.
 */
class AckCommitTest {

    private final List<List<Ack>> written = new ArrayList<>();
    private final List<CompletableFuture<List<String>>> pending = new ArrayList<>();
    private final List<Long> stamps = new ArrayList<>();
    private final AckCommit commit = new AckCommit((location, acks, stamp) -> {
        stamps.add(stamp);
        written.add(List.copyOf(acks));
        CompletableFuture<List<String>> answer = new CompletableFuture<>();
        pending.add(answer);
        return Uni.createFrom().completionStage(answer);
    }, new QueueMetrics(new SimpleMeterRegistry()));
    private final JobLocator.Location partition = new JobLocator.Location(null,
            new QueuePartition(7, 0, 3));

    @Test
    void concurrentCallsShareTheNextUpdateAndARepeatedJobWaitsForItsOwn() {
        CompletableFuture<List<String>> first = submit(1, 2);
        assertEquals(1, written.size(), "a lone call is written at once");
        CompletableFuture<List<String>> second = submit(3);
        CompletableFuture<List<String>> third = submit(4, 5);
        CompletableFuture<List<String>> repeat = submit(3, 6); // job 3 is in the next UPDATE already
        assertEquals(1, written.size(), "nothing else goes while the partition's UPDATE is in flight");

        pending.get(0).complete(List.of("acked", "lease_lost"));
        assertEquals(List.of("acked", "lease_lost"), first.join());
        assertEquals(2, written.size());
        assertEquals(ids(3, 4, 5), idsOf(written.get(1)), "the waiting calls went together, in order");

        pending.get(1).complete(List.of("acked", "not_found", "acked"));
        assertEquals(List.of("acked"), second.join());
        assertEquals(List.of("not_found", "acked"), third.join());
        assertEquals(3, written.size());
        assertEquals(ids(3, 6), idsOf(written.get(2)), "the call repeating job 3 had an UPDATE of its own");

        pending.get(2).completeExceptionally(new IllegalStateException("host down"));
        assertTrue(repeat.isCompletedExceptionally());
        assertEquals(3, written.size());
        assertTrue(stamps.get(0) < stamps.get(1) && stamps.get(1) < stamps.get(2),
                "each UPDATE of a partition has a later stamp than the one before: " + stamps);
    }

    private CompletableFuture<List<String>> submit(long... locals) {
        List<Ack> acks = new ArrayList<>();
        for (long local : locals) {
            acks.add(new Ack(PinionId.of(3, ObjectType.JOB, local), null, 1L, true, null, null));
        }
        return commit.submit(partition, acks).subscribeAsCompletionStage();
    }

    private static List<Long> ids(long... locals) {
        List<Long> ids = new ArrayList<>();
        for (long local : locals) {
            ids.add(PinionId.of(3, ObjectType.JOB, local).value());
        }
        return ids;
    }

    private static List<Long> idsOf(List<Ack> acks) {
        return acks.stream().map(ack -> ack.id().value()).toList();
    }
}
