package io.pinion.queue;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.enterprise.context.ApplicationScoped;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/**
 * Per-queue Prometheus metrics: {@code pinion_queue_enqueued_total}, {@code _dequeued_total},
 * {@code _acked_total{outcome}}, {@code _retries_total}, and per owned partition {@code pinion_queue_depth}
 * (pending jobs), {@code pinion_queue_oldest_due_age_seconds} and {@code pinion_queue_buffered}; in-app handler
 * latency is {@code pinion_queue_handler_seconds{queue,outcome}}, buffer hand-off time
 * {@code pinion_queue_handoff_seconds{queue}}. Partition gauges are published by the instance
 * that owns the partition, so sums across instances are cluster totals; they go when it stops owning it, and a
 * deleted queue's series go with it. The group commit of single enqueues is timed in its two stages (all queues):
 * {@code pinion_queue_group_commit_wait_seconds} (from the request to its INSERT being sent: waiting for the INSERT
 * in flight), {@code pinion_queue_group_commit_insert_seconds} (the INSERT and its commit) and
 * {@code pinion_queue_group_commit_jobs} (jobs per INSERT).
 */
@ApplicationScoped
public class QueueMetrics {

    private final MeterRegistry registry;
    private final Map<String, Counter> counters = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> gauges = new ConcurrentHashMap<>();
    private final Map<String, Timer> timers = new ConcurrentHashMap<>();
    private final Map<String, Meter> byQueue = new ConcurrentHashMap<>();
    private final Timer groupCommitWait;
    private final Timer groupCommitInsert;
    private final DistributionSummary groupCommitJobs;
    private final Timer ackCommitUpdate;
    private final DistributionSummary ackCommitAcks;
    private final DistributionSummary ackCommitCalls;
    private final DistributionSummary prefetchJobs;

    QueueMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.groupCommitWait = Timer.builder("pinion.queue.group.commit.wait")
                .description("From an enqueue's arrival in the group commit to its INSERT being sent")
                .publishPercentiles(0.5, 0.99).register(registry);
        this.groupCommitInsert = Timer.builder("pinion.queue.group.commit.insert")
                .description("A group commit's INSERT, commit included")
                .publishPercentiles(0.5, 0.99).register(registry);
        this.groupCommitJobs = DistributionSummary.builder("pinion.queue.group.commit.jobs")
                .description("Jobs per group-commit INSERT").publishPercentiles(0.5, 0.99).register(registry);
        this.ackCommitUpdate = Timer.builder("pinion.queue.ack.commit.update")
                .description("An ack UPDATE of one partition, commit included")
                .publishPercentiles(0.5, 0.99).register(registry);
        this.ackCommitAcks = DistributionSummary.builder("pinion.queue.ack.commit.acks")
                .description("Acks per ack UPDATE").publishPercentiles(0.5, 0.99).register(registry);
        this.ackCommitCalls = DistributionSummary.builder("pinion.queue.ack.commit.calls")
                .description("Ack calls sharing one ack UPDATE").publishPercentiles(0.5, 0.99).register(registry);
        this.prefetchJobs = DistributionSummary.builder("pinion.queue.prefetch.jobs")
                .description("Jobs leased by one prefetch of an owned partition (finds of none not counted)")
                .publishPercentiles(0.5, 0.99).register(registry);
    }

    /** One prefetch leased {@code jobs} jobs into a partition's buffer. */
    public void prefetched(int jobs) {
        prefetchJobs.record(jobs);
    }

    /** One ack UPDATE carrying {@code acks} acks of {@code calls} calls that took {@code nanos}. */
    void ackCommit(int acks, int calls, long nanos) {
        ackCommitAcks.record(acks);
        ackCommitCalls.record(calls);
        ackCommitUpdate.record(nanos, TimeUnit.NANOSECONDS);
    }

    /** One group-commit INSERT of {@code jobs} jobs that took {@code nanos}. */
    void groupCommitInsert(int jobs, long nanos) {
        groupCommitJobs.record(jobs);
        groupCommitInsert.record(nanos, TimeUnit.NANOSECONDS);
    }

    /** An enqueue waited {@code nanos} in the group commit before its INSERT was sent. */
    void groupCommitWait(long nanos) {
        groupCommitWait.record(nanos, TimeUnit.NANOSECONDS);
    }

    /** Jobs written already leased to this instance's broker ({@link WriteLeases}). */
    void writtenLeased(String queue, int count) {
        counter("pinion.queue.written.leased", queue, null).increment(count);
    }

    public void enqueued(String queue, int count) {
        counter("pinion.queue.enqueued", queue, null).increment(count);
    }

    public void dequeued(String queue, int count) {
        if (count > 0) {
            counter("pinion.queue.dequeued", queue, null).increment(count);
        }
    }

    public void acked(String queue, boolean success, int count) {
        counter("pinion.queue.acked", queue, success ? "success" : "failure").increment(count);
    }

    public void retried(String queue, int count) {
        if (count > 0) {
            counter("pinion.queue.retries", queue, null).increment(count);
        }
    }

    public void handled(String queue, boolean success, long nanos) {
        timers.computeIfAbsent(queue + "|" + success, key -> track(key, Timer.builder("pinion.queue.handler")
                        .tag("queue", queue).tag("outcome", success ? "success" : "failure")
                        .publishPercentiles(0.5, 0.99)
                        .register(registry)))
                .record(nanos, TimeUnit.NANOSECONDS);
    }

    /** Time to hand jobs out of a broker's buffers (in-process dequeue), {@code pinion_queue_handoff_seconds}. */
    public void handoff(String queue, long nanos) {
        timers.computeIfAbsent(queue + "|handoff", key -> track(key, Timer.builder("pinion.queue.handoff")
                        .tag("queue", queue)
                        .publishPercentiles(0.5, 0.99, 0.999)
                        .register(registry)))
                .record(nanos, TimeUnit.NANOSECONDS);
    }

    /** Sets a gauge of one partition: {@code depth}, {@code oldest_due_age_seconds} or {@code buffered}. */
    public void partitionGauge(String name, String queue, int partition, long value) {
        gauges.computeIfAbsent(queue + "|" + partition + "|" + name, key -> {
            AtomicLong holder = new AtomicLong();
            track(key, Gauge.builder("pinion.queue." + name.replace('_', '.'), holder, AtomicLong::get)
                    .tag("queue", queue).tag("partition", Integer.toString(partition))
                    .register(registry));
            return holder;
        }).set(value);
    }

    /** Removes the gauges of a partition this instance no longer owns. */
    public void forgetPartition(String queue, int partition) {
        forget(queue + "|" + partition + "|");
    }

    /** Removes every series of the queues not among {@code existing} (deleted ones). */
    public void keepOnly(Set<String> existing) {
        byQueue.keySet().stream().map(key -> key.substring(0, key.indexOf('|'))).distinct()
                .filter(queue -> !existing.contains(queue)).forEach(queue -> forget(queue + "|"));
    }

    private void forget(String prefix) {
        byQueue.keySet().removeIf(key -> {
            if (!key.startsWith(prefix)) {
                return false;
            }
            registry.remove(byQueue.get(key));
            counters.remove(key);
            gauges.remove(key);
            timers.remove(key);
            return true;
        });
    }

    private <M extends Meter> M track(String key, M meter) {
        byQueue.put(key, meter);
        return meter;
    }

    private Counter counter(String name, String queue, String outcome) {
        return counters.computeIfAbsent(queue + "|" + name + "|" + outcome, key -> {
            Counter.Builder builder = Counter.builder(name).tag("queue", queue);
            if (outcome != null) {
                builder.tag("outcome", outcome);
            }
            return track(key, builder.register(registry));
        });
    }
}
