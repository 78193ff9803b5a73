package io.pinion.queue.broker;

import java.util.concurrent.Executor;
import java.util.function.LongSupplier;

import io.pinion.queue.QueuePartition;

/**
 * What an owned partition runs on: its table, the clock its decisions read (epoch ms), and the event loop it defers
 * work to (a refill after a hand-out, a release found during one). Tests give it a fake table, a virtual clock and
 * a loop that runs when they say.
 *
 * @param loop runs a task soon on an event loop, never on the calling thread's stack
 */
record PartitionRuntime(PartitionTable table, LongSupplier clock, Executor loop) {

    /** The partition's statements on MySQL, the system clock and the broker's Vert.x event loops. */
    static PartitionRuntime of(BrokerContext context, QueuePartition partition, String brokerId) {
        return new PartitionRuntime(new PartitionSql(context.sql(), partition, brokerId), System::currentTimeMillis,
                task -> context.vertx().runOnContext(task));
    }
}
