package io.pinion.queue.broker;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.pinion.queue.Queue;
import io.pinion.queue.broker.pacing.TokenBucket;

/**
 * The queues' rate limits as one broker applies them: each queue's rate times the share of its partitions this broker
 * owns, so the brokers together hand out at most the queue's rate.
 */
final class QueueRates {

    private final Map<String, TokenBucket> buckets = new ConcurrentHashMap<>();

    /** Sets the queue's rate for a broker owning {@code owned} of its partitions. */
    void apply(Queue queue, long owned) {
        Double rate = queue.config().rateLimit();
        buckets.computeIfAbsent(queue.name(), key -> new TokenBucket())
                .setRate(rate == null ? -1 : rate * owned / queue.partitions().size());
    }

    /** How many of {@code wanted} jobs may be handed out now. */
    int grant(String queueName, int wanted) {
        TokenBucket bucket = buckets.get(queueName);
        return bucket == null ? wanted : bucket.take(wanted);
    }

    /** Returns grants that were not used. */
    void giveBack(String queueName, int unused) {
        TokenBucket bucket = buckets.get(queueName);
        if (bucket != null) {
            bucket.giveBack(unused);
        }
    }
}
