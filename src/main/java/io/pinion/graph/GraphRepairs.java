package io.pinion.graph;

import java.nio.charset.StandardCharsets;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.pinion.failure.Outages;
import io.pinion.graph.repair.PendingSweeper;
import io.pinion.queue.JobWriter;
import io.pinion.queue.NewJob;
import io.pinion.queue.QueueRegistry;
import io.smallrye.mutiny.Uni;

/**
 * Repair jobs: when the second side of a relationship could not be written, a job on queue {@code graph-repair}
 * syncs it again (with backoff) until both sides agree. If even the job cannot be enqueued, the pending mark the
 * follower's side keeps leads the {@link PendingSweeper} to the relationship.
 */
@ApplicationScoped
public class GraphRepairs {

    public static final String QUEUE = "graph-repair";
    private static final long FIRST_TRY_DELAY_MS = 250;
    private static final Logger LOG = Logger.getLogger(GraphRepairs.class);

    private final QueueRegistry queues;
    private final JobWriter writer;
    private final GraphMetrics metrics;

    GraphRepairs(QueueRegistry queues, JobWriter writer, GraphMetrics metrics) {
        this.queues = queues;
        this.writer = writer;
        this.metrics = metrics;
    }

    /** Enqueues a repair; never fails (a failure is logged and left to the sweep). */
    public Uni<Void> schedule(Relationship relationship, Throwable why) {
        LOG.debugf("repairing %s later: %s", relationship.name(), Outages.describe(why));
        metrics.repairScheduled();
        NewJob job = new NewJob(relationship.name().getBytes(StandardCharsets.UTF_8), 1,
                System.currentTimeMillis() + FIRST_TRY_DELAY_MS, null);
        return queues.get(QUEUE)
                .chain(queue -> writer.enqueue(queue, List.of(job)))
                .replaceWithVoid()
                .onFailure().recoverWithItem(failure -> {
                    LOG.warnf("could not enqueue the repair of %s (%s); the pending sweep will repair it",
                            relationship.name(), Outages.describe(failure));
                    return null;
                });
    }
}
