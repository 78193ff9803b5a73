package io.pinion.queue;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.enterprise.context.ApplicationScoped;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/**
 * Per-queue Prometheus metrics: {@code pinion_queue_enqueued_total}, {@code _dequeued_total},
 * {@code _acked_total{outcome}}, {@code _retries_total}, and per owned partition {@code pinion_queue_depth}
 * (pending jobs), {@code pinion_queue_oldest_due_age_seconds} and {@code pinion_queue_buffered}; in-app handler
 * latency is {@code pinion_queue_handler_seconds{queue,outcome}}, buffer hand-off time
 * {@code pinion_queue_handoff_seconds{queue}}. Partition gauges are published by the instance
 * that owns the partition, so sums across instances are cluster totals.
 */
@ApplicationScoped
public class QueueMetrics {

    private final MeterRegistry registry;
    private final Map<String, Counter> counters = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> gauges = new ConcurrentHashMap<>();
    private final Map<String, Timer> timers = new ConcurrentHashMap<>();

    QueueMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    public void enqueued(String queue, int count) {
        counter("pinion_queue_enqueued_total", queue, null).increment(count);
    }

    public void dequeued(String queue, int count) {
        if (count > 0) {
            counter("pinion_queue_dequeued_total", queue, null).increment(count);
        }
    }

    public void acked(String queue, boolean success, int count) {
        counter("pinion_queue_acked_total", queue, success ? "success" : "failure").increment(count);
    }

    public void retried(String queue, int count) {
        if (count > 0) {
            counter("pinion_queue_retries_total", queue, null).increment(count);
        }
    }

    public void handled(String queue, boolean success, long nanos) {
        timers.computeIfAbsent(queue + "|" + success, key -> Timer.builder("pinion_queue_handler_seconds")
                        .tag("queue", queue).tag("outcome", success ? "success" : "failure")
                        .publishPercentiles(0.5, 0.99)
                        .register(registry))
                .record(nanos, TimeUnit.NANOSECONDS);
    }

    /** Time to hand jobs out of a broker's buffers (in-process dequeue), {@code pinion_queue_handoff_seconds}. */
    public void handoff(String queue, long nanos) {
        timers.computeIfAbsent(queue + "|handoff", key -> Timer.builder("pinion_queue_handoff_seconds")
                        .tag("queue", queue)
                        .publishPercentiles(0.5, 0.99, 0.999)
                        .register(registry))
                .record(nanos, TimeUnit.NANOSECONDS);
    }

    /** Sets a gauge of one partition: {@code depth}, {@code oldest_due_age_seconds} or {@code buffered}. */
    public void partitionGauge(String name, String queue, int partition, long value) {
        gauges.computeIfAbsent(name + "|" + queue + "|" + partition, key -> {
            AtomicLong holder = new AtomicLong();
            Gauge.builder("pinion_queue_" + name, holder, AtomicLong::get)
                    .tag("queue", queue).tag("partition", Integer.toString(partition))
                    .register(registry);
            return holder;
        }).set(value);
    }

    private Counter counter(String name, String queue, String outcome) {
        return counters.computeIfAbsent(name + "|" + queue + "|" + outcome, key -> {
            Counter.Builder builder = Counter.builder(name).tag("queue", queue);
            if (outcome != null) {
                builder.tag("outcome", outcome);
            }
            return builder.register(registry);
        });
    }
}
