package io.pinion.ops.overview;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.pinion.ops.overview.CounterRates.Rates;
import io.pinion.ops.overview.Overview.QueueRates;

/**
 * The queues' counters of {@code io.pinion.queue.QueueMetrics} gathered per queue: enqueued, acked by outcome,
 * retried.
 */
final class QueueTally {

    /** One queue's counters; any may be missing until the queue first does that. */
    private static final class Counters {
        Counter enqueued;
        Counter ackedSuccess;
        Counter ackedFailure;
        Counter retries;
    }

    private final Map<String, Counters> byQueue = new TreeMap<>();

    QueueTally(Collection<Counter> enqueued, Collection<Counter> acked, Collection<Counter> retries) {
        enqueued.forEach(counter -> of(counter).enqueued = counter);
        for (Counter counter : acked) {
            if ("success".equals(counter.getId().getTag("outcome"))) {
                of(counter).ackedSuccess = counter;
            } else {
                of(counter).ackedFailure = counter;
            }
        }
        retries.forEach(counter -> of(counter).retries = counter);
    }

    /** Per queue, by name. */
    List<QueueRates> rates(Rates<Meter.Id> rates) {
        return byQueue.entrySet().stream().map(entry -> {
            Counters queue = entry.getValue();
            return new QueueRates(entry.getKey(), count(queue.enqueued), rate(queue.enqueued, rates),
                    count(queue.ackedSuccess), rate(queue.ackedSuccess, rates), count(queue.ackedFailure),
                    rate(queue.ackedFailure, rates), count(queue.retries), rate(queue.retries, rates));
        }).toList();
    }

    private Counters of(Counter counter) {
        return byQueue.computeIfAbsent(counter.getId().getTag("queue"), queue -> new Counters());
    }

    private static long count(Counter counter) {
        return counter == null ? 0 : (long) counter.count();
    }

    private static double rate(Counter counter, Rates<Meter.Id> rates) {
        return counter == null ? 0 : OverviewService.rounded(rates.perSecond(counter.getId()));
    }
}
