package io.pinion.queue.broker;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

import org.jboss.logging.Logger;

import io.smallrye.mutiny.Uni;

/**
 * The periodic work on a broker's owned partitions: refilling buffers (tick), sweeping expired leases (one sweep at
 * a time), deleting finished jobs past their retention, and measuring depth. A failure is logged and retried at the
 * next period.
 */
final class Housekeeping {

    private static final Logger LOG = Logger.getLogger(Housekeeping.class);

    private final OwnedPartitions owned;
    private final AtomicBoolean sweeping = new AtomicBoolean();

    Housekeeping(OwnedPartitions owned) {
        this.owned = owned;
    }

    void tick() {
        long now = System.currentTimeMillis();
        owned.all().forEach(partition -> partition.tick(now));
    }

    void sweep() {
        if (sweeping.compareAndSet(false, true)) {
            long now = System.currentTimeMillis();
            List<Uni<Void>> sweeps = owned.all().stream().map(partition -> partition.sweep(now)
                    .onFailure().invoke(failure -> LOG.debugf("lease sweep of %s failed: %s",
                            partition.partition().table(), failure.getMessage()))
                    .onFailure().recoverWithNull()).toList();
            (sweeps.isEmpty()
                            ? Uni.createFrom().voidItem()
                            : Uni.join().all(sweeps).andCollectFailures().replaceWithVoid())
                    .subscribe()
                    .with(ignored -> sweeping.set(false), failure -> sweeping.set(false));
        }
    }

    void collectGarbage() {
        each(partition -> partition.collectGarbage(System.currentTimeMillis()));
    }

    void measure() {
        each(partition -> partition.measure(System.currentTimeMillis()));
    }

    private void each(Function<OwnedPartition, Uni<Void>> work) {
        owned.all()
                .forEach(partition -> work.apply(partition)
                        .subscribe()
                        .with(
                                ignored -> {},
                                failure -> LOG.debugf(
                                        "housekeeping of %s failed: %s",
                                        partition.partition().table(), failure.getMessage())));
    }
}
