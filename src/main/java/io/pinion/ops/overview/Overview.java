package io.pinion.ops.overview;

import java.time.Instant;
import java.util.List;

/**
 * What the operator's dashboard shows beyond the other admin endpoints, read from this instance's meters. Counts are
 * since this instance started; rates are per second over the last {@code rateWindowSeconds} (about ten; 0 on the
 * first call, when every rate is 0).
 */
public record Overview(Instant at, double rateWindowSeconds, List<RequestGroupStats> requests,
        List<FunnelCount> funnel, List<HedgeStats> hedges, List<QueueRates> queues) {

    /** One endpoint group: requests, their p99 latency over the last 20–30 s, and 5xx answers. */
    public record RequestGroupStats(String group, long count, double ratePerSec, double p99Ms, long errors,
            double errorsPerSec) {
    }

    /** One {@code pinion_feed_funnel_total} counter. */
    public record FunnelCount(String stage, String source, String reason, long count, double ratePerSec) {
    }

    /** One hedged reader: the hedge delay in force and its reads by outcome. */
    public record HedgeStats(String name, Double delayMs, List<OutcomeCount> outcomes) {
    }

    /** Reads of one outcome, e.g. {@code hedged_standby_won}. */
    public record OutcomeCount(String outcome, long count, double ratePerSec) {
    }

    /** One queue's enqueues, acks and retries on this instance. */
    public record QueueRates(String queue, long enqueued, double enqueuedPerSec, long ackedSuccess,
            double ackedSuccessPerSec, long ackedFailure, double ackedFailurePerSec, long retries,
            double retriesPerSec) {
    }
}
