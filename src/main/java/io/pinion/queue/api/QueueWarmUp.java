package io.pinion.queue.api;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.health.WarmUpTask;
import io.pinion.id.PinionId;
import io.pinion.queue.Ack;
import io.pinion.queue.JobAcks;
import io.pinion.queue.JobWriter;
import io.pinion.queue.NewJob;
import io.pinion.queue.Queue;
import io.pinion.queue.QueueRegistry;
import io.pinion.queue.work.WarmUpJobs;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.tuples.Tuple2;

/**
 * The job queue's part of the warm-up: on the warm-up's own queue ({@link WarmUpJobs}) it does what a worker does over
 * HTTP, without the HTTP: a dequeue from this instance's broker waiting up to 100 ms (the long poll, the buffers, the
 * lease tokens' MACs), a batch of ten jobs and a single job enqueued meanwhile (one multi-row INSERT, one group
 * commit), and an ack of what it leased by lease token (one UPDATE per partition). No user's queue or data is
 * touched.
 */
@ApplicationScoped
public class QueueWarmUp implements WarmUpTask {

    private static final int BATCH = 10;
    private static final long WAIT_MS = 100;
    private static final byte[] BODY = "warm-up".getBytes(StandardCharsets.UTF_8);

    private final QueueRegistry registry;
    private final JobWriter writer;
    private final Dequeues dequeues;
    private final LeaseTokens tokens;
    private final JobAcks acks;

    QueueWarmUp(QueueRegistry registry, JobWriter writer, Dequeues dequeues, LeaseTokens tokens, JobAcks acks) {
        this.registry = registry;
        this.writer = writer;
        this.dequeues = dequeues;
        this.tokens = tokens;
        this.acks = acks;
    }

    @Override
    public boolean perUser() {
        return false;
    }

    @Override
    public Uni<Void> warm(PinionId user) {
        // the dequeue waits first, so the jobs go to it as they arrive (a waiting dequeue is served before the
        // in-app handler, which acks whatever it does not take)
        return registry.get(WarmUpJobs.QUEUE)
                .chain(queue -> Uni.combine().all().unis(
                        dequeues.here(queue.name(), BATCH + 1, WAIT_MS),
                        writer.enqueue(queue, jobs(queue, BATCH)).chain(() -> writer.enqueue(queue, jobs(queue, 1))))
                        .asTuple())
                .map(Tuple2::getItem1)
                .chain(leased -> leased.isEmpty() ? Uni.createFrom().voidItem()
                        : acks.ack(leased.stream().map(this::ack).toList(), queue -> Uni.createFrom().voidItem())
                                .replaceWithVoid());
    }

    private static List<NewJob> jobs(Queue queue, int count) {
        List<NewJob> jobs = new ArrayList<>(count);
        long now = System.currentTimeMillis();
        for (int i = 0; i < count; i++) {
            jobs.add(new NewJob(BODY, queue.config().defaultPriority(), now, null));
        }
        return jobs;
    }

    private Ack ack(LeaseView lease) {
        PinionId job = PinionId.parse(lease.id());
        return new Ack(job, null, tokens.lease(job, lease.leaseToken(), "leaseToken"), true, null, null);
    }
}
