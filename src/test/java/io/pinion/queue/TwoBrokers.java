package io.pinion.queue;

import java.util.List;
import java.util.UUID;

import io.pinion.Wait;
import io.pinion.queue.broker.BrokerContext;
import io.pinion.queue.broker.DequeueBroker;

/** A second dequeue broker in the test process, next to the application's own, with its own id. */
final class TwoBrokers {

    private TwoBrokers() {
    }

    static DequeueBroker startSecond(BrokerContext context) {
        DequeueBroker broker =
                new DequeueBroker("test-broker-" + UUID.randomUUID().toString().substring(0, 8), "test", context);
        broker.start();
        return broker;
    }

    /** Partitions of the queue the broker owns. */
    static List<String> owned(DequeueBroker broker, long queueId) {
        return broker.ownedPartitions().stream().filter(key -> key.startsWith(queueId + "/")).toList();
    }

    /** Waits until the brokers split the queue's partitions evenly between them. */
    static void awaitEvenSplit(DequeueBroker first, DequeueBroker second, long queueId, int partitions)
            throws InterruptedException {
        Wait.within(15_000, () -> owned(first, queueId).size() == partitions / 2
                && owned(second, queueId).size() == partitions / 2,
                () -> "partitions split evenly: " + owned(first, queueId) + " / " + owned(second, queueId));
    }
}
