package io.pinion.queue;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * Service-wide job queue settings ({@code pinion.queue.*}). Per-queue settings live in MySQL with the queue.
 */
@ConfigMapping(prefix = "pinion.queue")
public interface QueueSettings {

    /** Largest job body a queue accepts unless its own {@code maxBodyBytes} says otherwise. */
    @WithDefault("65536")
    int maxBodyBytes();

    /** Whether this instance runs a dequeue broker (and the in-app workers that take jobs from it). */
    @WithDefault("true")
    boolean brokerEnabled();

    /**
     * How often a broker rebalances on its own, besides at once on every change ZooKeeper reports (members, owners,
     * its session): it picks up queues created or changed elsewhere.
     */
    @WithDefault("1s")
    Duration heartbeatInterval();

    /**
     * A broker's ZooKeeper session timeout: a broker that dies keeps its partitions this long, then the others take
     * them (the ensemble bounds it: 2 to 20 s in the local stack). A broker cut off from ZooKeeper stops serving
     * within two thirds of it.
     */
    @WithDefault("6s")
    Duration brokerSessionTimeout();

    /**
     * The address ({@code host:port}) at which the other instances reach this one's HTTP API, for dequeues they
     * forward here; by default {@code quarkus.http.host} and the HTTP port, or this machine's host name when the
     * server listens on every address (containers).
     */
    java.util.Optional<String> brokerAddress();

    /**
     * How often the configuration cache is refreshed from MySQL (queue changes take effect within this; at least 1 s).
     */
    @WithDefault("1s")
    Duration refreshInterval();

    /** Most jobs buffered in memory per owned partition. */
    @WithDefault("1000")
    int bufferCapacity();

    /**
     * Most bytes of job bodies one owned partition buffers: prefetching stops short of it, counting every body as
     * large as the queue allows.
     */
    @WithDefault("4194304")
    long bufferMaxBytes();

    /**
     * Most bytes of job bodies waiting for the group commit, over all queues: beyond it an enqueue answers 503
     * {@code overloaded} at once instead of queueing more in memory.
     */
    @WithDefault("16777216")
    long groupCommitMaxBytes();

    /** Most jobs leased by one prefetch statement. */
    @WithDefault("500")
    int prefetchBatch();

    /**
     * How often owned partitions look for due jobs when they have nothing buffered (those served to outside workers:
     * while workers ask). For a queue handled in-app each look that finds none doubles the wait, up to
     * {@link #pollIntervalMax()}; jobs found start it again from here. Jobs enqueued to an owned partition through
     * this instance are looked for at once.
     */
    @WithDefault("200ms")
    Duration pollInterval();

    /**
     * The longest wait between looks of an idle partition handled in-app: how late, at most, it finds jobs enqueued
     * through another instance or becoming due (retries, delayed jobs).
     */
    @WithDefault("1s")
    Duration pollIntervalMax();

    /**
     * The longest a lease may last from the moment it was given, however often its worker checkpoints (each
     * checkpoint extends it by at most a day): past it the job goes back to the queue when the lease ends.
     */
    @WithDefault("7d")
    Duration leaseMaxTotal();

    /** How often expired leases are returned to PENDING (or FAILED). */
    @WithDefault("1s")
    Duration sweepInterval();

    /** How often finished jobs past their queue's retention are deleted. */
    @WithDefault("30s")
    Duration gcInterval();

    /** How often depth and oldest-due age of owned partitions are measured for metrics. */
    @WithDefault("10s")
    Duration statsInterval();

    /** How long a partition counts as having demand after a dequeue call, so its buffer is kept filled. */
    @WithDefault("30s")
    Duration demandWindow();

    /**
     * How often in-app workers look for jobs in the local broker besides being woken when jobs arrive
     * (quarkus-scheduler: at least 1 s).
     */
    @WithDefault("1s")
    Duration dispatchInterval();

    /**
     * Group commit of small enqueues: how many INSERTs of one queue may be in flight at once. Requests arriving
     * meanwhile share the next INSERT, so fewer in flight means fewer, larger commits. One measured best with the
     * binary log and replicas on (docs/benchmarks.md): concurrent commits slow each other more than they overlap.
     */
    @WithDefault("1")
    int groupCommitInFlight();

    /** Largest block of job ids reserved at once per partition. */
    @WithDefault("65536")
    int maxIdBlock();

    /** Longest a dequeue call may wait for jobs ({@code waitMs}). */
    @WithDefault("20s")
    Duration maxDequeueWait();
}
