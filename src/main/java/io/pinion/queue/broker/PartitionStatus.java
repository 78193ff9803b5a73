package io.pinion.queue.broker;

import java.util.function.BooleanSupplier;

import io.pinion.queue.Queue;

/**
 * Whether an owned partition may work now and by which settings: the queue as last refreshed, whether the partition
 * was stopped, whether the broker still holds its claim, and the buffer's limits that follow from them.
 *
 * <p>Thread contract: read from every thread that works on the partition (request threads and event loops that hand
 * out, the broker's timers, the answers of its statements); written by the broker's rebalance ({@link #update}) and
 * stop. Both fields are volatile single writes read without a lock: a reader sees the queue's settings as they were
 * at some moment of its call, and once {@link #stop} returned every thread sees the partition stopped.
 */
final class PartitionStatus {

    /** Most jobs a FIFO partition buffers, whatever {@code pinion.queue.buffer-capacity} says. */
    static final int FIFO_BUFFER = 16;

    private final BooleanSupplier serving;
    private final int bufferCapacity;
    private final long bufferMaxBytes;
    private volatile Queue queue;
    private volatile boolean stopped;

    /** @param serving whether the broker may serve the partition now (it holds its claim in ZooKeeper) */
    PartitionStatus(Queue queue, BooleanSupplier serving, int bufferCapacity, long bufferMaxBytes) {
        this.queue = queue;
        this.serving = serving;
        this.bufferCapacity = bufferCapacity;
        this.bufferMaxBytes = bufferMaxBytes;
    }

    Queue queue() {
        return queue;
    }

    /** New settings, from the broker's rebalance. */
    void update(Queue latest) {
        queue = latest;
    }

    /** From now on the partition works no more. */
    void stop() {
        stopped = true;
    }

    boolean stopped() {
        return stopped;
    }

    /** Whether the broker still holds its claim on the partition (false from the moment its connection was lost). */
    boolean serving() {
        return serving.getAsBoolean();
    }

    /** Not stopped and still serving. */
    boolean canWork() {
        return !stopped && serving.getAsBoolean();
    }

    /** Most jobs the buffer holds. */
    int capacity() {
        return queue.config().fifo() ? Math.min(FIFO_BUFFER, bufferCapacity) : bufferCapacity;
    }

    /** Most bytes of bodies the buffer holds ({@code pinion.queue.buffer-max-bytes}). */
    long maxBytes() {
        return bufferMaxBytes;
    }

    /** Whether a buffer holding {@code buffered} jobs is below half its capacity (time to refill it). */
    boolean belowHalf(int buffered) {
        return buffered < capacity() / 2;
    }
}
