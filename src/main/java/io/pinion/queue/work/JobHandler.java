package io.pinion.queue.work;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import io.pinion.queue.QueueConfig;

/**
 * Marks a {@link JobWorker} bean as the in-app handler of a queue. The queue is created with these settings at
 * start-up when it does not exist yet; later changes go through the queue API.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface JobHandler {

    /** The queue's name. */
    String value();

    /** Most jobs of the queue running at once in this instance. */
    int concurrency() default 16;

    int partitions() default 4;

    int maxAttempts() default 5;

    long leaseMs() default 60_000;

    boolean fifo() default false;

    /** Delay after the first failed attempt; it doubles with every further failure up to {@link #retryMaxDelayMs()}. */
    long retryDelayMs() default 1_000;

    long retryMaxDelayMs() default 300_000;

    /** How long finished jobs are kept. */
    long retentionMs() default QueueConfig.DEFAULT_RETENTION_MS;

    /**
     * Whether the queue is the service's own: its jobs carry internal state, so nothing may enqueue to it or lease
     * from it over HTTP (admins may still read it and retry or delete its jobs). The feed's and the graph's queues
     * are; a handler of jobs that outside producers send (thumbnails, say) sets this to false.
     */
    boolean internal() default true;
}
