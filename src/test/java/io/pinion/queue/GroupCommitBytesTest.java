package io.pinion.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.pinion.failure.Failure;
import io.pinion.failure.Overloaded;
import io.pinion.id.PinionId;
import io.pinion.web.ErrorMappers;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.helpers.test.UniAssertSubscriber;

/**
 * The group commit's waiting list is bounded in bytes: with INSERTs stuck, enqueues wait until the bodies waiting
 * reach the limit, and the next one is refused at once with 503 {@code overloaded} instead of growing memory.
 */
class GroupCommitBytesTest {

    private static final Queue QUEUE = new Queue(1, "bytes", QueueConfig.defaults(1_000_000), 1, 0, 0, List.of());

    @Test
    void enqueuesPastTheByteLimitAreRefusedAtOnce() {
        List<Uni<List<Enqueued>>> stuck = new ArrayList<>();
        GroupCommit commit = new GroupCommit(1, 10_000, (queue, jobs) -> Uni.createFrom().<List<Enqueued>>nothing(),
                new QueueMetrics(new SimpleMeterRegistry()));
        for (int i = 0; i < 3; i++) {
            stuck.add(commit.submit(QUEUE, List.of(job(4_000))));
        }
        List<UniAssertSubscriber<List<Enqueued>>> waiting = stuck.stream()
                .map(uni -> uni.subscribe().withSubscriber(UniAssertSubscriber.create())).toList();
        waiting.get(0).assertNotTerminated();
        waiting.get(1).assertNotTerminated();
        Failure refused = (Failure) waiting.get(2).assertFailedWith(Overloaded.class).getFailure();
        var response = new ErrorMappers().failure(refused);
        assertEquals(503, response.getStatus());
        assertEquals("1", response.getHeaderString("Retry-After"));
        assertEquals("overloaded", refused.code());
    }

    @Test
    void aSingleBatchLargerThanTheLimitStillGoesWhenNothingElseWaits() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        GroupCommit commit = new GroupCommit(1, 1_000, (queue, jobs) -> Uni.createFrom().item(
                jobs.stream().map(job -> new Enqueued(PinionId.of(1, io.pinion.id.ObjectType.JOB, 1), true)).toList()),
                new QueueMetrics(registry));
        commit.submit(QUEUE, List.of(job(5_000), job(10))).subscribe().withSubscriber(UniAssertSubscriber.create())
                .assertCompleted();
        assertEquals(1, registry.get("pinion.queue.group.commit.jobs").summary().count());
        assertEquals(2.0, registry.get("pinion.queue.group.commit.jobs").summary().totalAmount());
        assertEquals(1, registry.get("pinion.queue.group.commit.wait").timer().count());
    }

    private static NewJob job(int bytes) {
        return new NewJob(new byte[bytes], 2, 0, null);
    }
}
