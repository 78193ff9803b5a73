package io.pinion.queue.work;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.pinion.queue.Ack;
import io.pinion.queue.JobAcks;
import io.pinion.queue.LeasedJob;
import io.pinion.queue.QueueRegistry;
import io.pinion.queue.QueuePartition;
import io.vertx.mutiny.core.Vertx;

/**
 * Collects the in-app workers' acks for a few milliseconds and writes them with one UPDATE per partition. An ack
 * that cannot be written is dropped: the job's lease expires and it runs again (at-least-once).
 */
@ApplicationScoped
public class AckBatcher {

    private static final Logger LOG = Logger.getLogger(AckBatcher.class);
    private static final int FLUSH_AT = 200;
    private static final long LINGER_MS = 2;

    private record Pending(QueuePartition partition, List<Ack> acks) {
    }

    private final JobAcks acks;
    private final QueueRegistry registry;
    private final Vertx vertx;
    private final Map<String, Pending> pending = new ConcurrentHashMap<>();
    private final AtomicBoolean scheduled = new AtomicBoolean();

    AckBatcher(JobAcks acks, QueueRegistry registry, Vertx vertx) {
        this.acks = acks;
        this.registry = registry;
        this.vertx = vertx;
    }

    public void add(LeasedJob job, boolean success, String status) {
        Ack ack = new Ack(job.id(), job.attempt(), job.lease(), success, status, null);
        String key = job.partition().key();
        boolean full;
        synchronized (this) {
            Pending batch = pending.computeIfAbsent(key, k -> new Pending(job.partition(), new ArrayList<>()));
            batch.acks().add(ack);
            full = batch.acks().size() >= FLUSH_AT;
        }
        if (full) {
            flush(key);
        } else if (scheduled.compareAndSet(false, true)) {
            vertx.setTimer(LINGER_MS, ignored -> {
                scheduled.set(false);
                pending.keySet().forEach(this::flush);
            });
        }
    }

    private void flush(String key) {
        Pending batch;
        synchronized (this) {
            batch = pending.remove(key);
        }
        if (batch == null || batch.acks().isEmpty()) {
            return;
        }
        registry.cachedById(batch.partition().queueId())
                .ifPresentOrElse(
                        queue -> acks.ack(queue, batch.partition(), batch.acks())
                                .subscribe()
                                .with(
                                        ignored -> {},
                                        failure -> LOG.warnf(
                                                "could not ack %d jobs of %s (they will run again): %s",
                                                batch.acks().size(), queue.name(), failure.getMessage())),
                        () -> LOG.debugf(
                                "dropping acks of deleted queue %d",
                                batch.partition().queueId()));
    }
}
