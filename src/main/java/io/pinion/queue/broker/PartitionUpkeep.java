package io.pinion.queue.broker;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

import io.pinion.queue.Queue;
import io.smallrye.mutiny.Uni;

/**
 * An owned partition's upkeep apart from handing out: deleting finished jobs past the queue's retention (a bounded
 * amount per call, one call at a time) and publishing its depth and the age of its oldest due job.
 */
final class PartitionUpkeep {

    private static final int GC_BATCH = 5_000;
    private static final int GC_ROUNDS = 20;

    private final BrokerContext context;
    private final PartitionTable statements;
    private final int partition;
    private final BooleanSupplier stopped;
    private final AtomicBoolean collecting = new AtomicBoolean();

    PartitionUpkeep(BrokerContext context, PartitionTable statements, int partition, BooleanSupplier stopped) {
        this.context = context;
        this.statements = statements;
        this.partition = partition;
        this.stopped = stopped;
    }

    /**
     * Deletes finished jobs older than the queue's retention; does nothing while a collection runs, and calls
     * {@code onStart} when one starts.
     */
    Uni<Void> collectGarbage(Queue queue, long now, Runnable onStart) {
        if (stopped.getAsBoolean() || !collecting.compareAndSet(false, true)) {
            return Uni.createFrom().voidItem();
        }
        onStart.run();
        return deleteFinished(now - queue.config().retentionMs(), GC_ROUNDS)
                .onTermination().invoke(() -> collecting.set(false));
    }

    private Uni<Void> deleteFinished(long before, int rounds) {
        return statements.deleteFinished(before, GC_BATCH)
                .flatMap(deleted -> deleted == GC_BATCH && rounds > 1 && !stopped.getAsBoolean()
                        ? deleteFinished(before, rounds - 1)
                        : Uni.createFrom().voidItem());
    }

    /** Publishes pending depth and the age of the oldest due job. */
    Uni<Void> measure(Queue queue, long now) {
        if (stopped.getAsBoolean()) {
            return Uni.createFrom().voidItem();
        }
        return statements.depth().invoke(depth -> {
            if (stopped.getAsBoolean()) {
                return;
            }
            Long earliest = depth.earliestRunAfter();
            long age = earliest != null && earliest <= now ? (now - earliest) / 1000 : 0;
            context.metrics().partitionGauge("depth", queue.name(), partition, depth.pending());
            context.metrics().partitionGauge("oldest_due_age_seconds", queue.name(), partition, age);
        }).replaceWithVoid();
    }
}
