package io.pinion.ops.overview;

import java.time.Instant;
import java.util.List;

/**
 * The cluster's figures, from the Prometheus that scrapes every instance ({@code pinion.prometheus.url}); rates are
 * per second over the last minute. Without a Prometheus, {@code configured} is false and the lists are empty: the
 * dashboard's figures are then the answering instance's alone.
 *
 * @param instances the instances Prometheus scrapes successfully now
 */
public record ClusterOverview(boolean configured, Instant at, int instances, List<GroupRates> requests,
        List<QueueFigures> queues) {

    /** One endpoint group over the whole cluster; {@code p99Ms} is the highest of the instances' p99 (null: none). */
    public record GroupRates(String group, double ratePerSec, double errorsPerSec, Double p99Ms) {
    }

    /** One queue over the whole cluster: enqueues and successful acks per second, pending jobs, oldest due age. */
    public record QueueFigures(String queue, double enqueuedPerSec, double ackedPerSec, long depth,
            double oldestDueAgeSeconds) {
    }

    static ClusterOverview none() {
        return new ClusterOverview(false, Instant.now(), 0, List.of(), List.of());
    }
}
