package io.pinion.ops.overview;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.context.ApplicationScoped;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.ValueAtPercentile;
import io.pinion.hedge.HedgeOutcome;
import io.pinion.ops.overview.CounterRates.Rates;
import io.pinion.ops.overview.Overview.FunnelCount;
import io.pinion.ops.overview.Overview.HedgeStats;
import io.pinion.ops.overview.Overview.OutcomeCount;
import io.pinion.ops.overview.Overview.RequestGroupStats;

/**
 * Builds the operator's {@link Overview} from this instance's meters, found by name so that meters registered later
 * (or never) are simply listed or not: the request meters per endpoint group (the web layer's), the feed funnel, the
 * hedged readers and the queues' counters. Rates come from {@link CounterRates}.
 */
@ApplicationScoped
public class OverviewService {

    /** The web layer's request timer and 5xx counter per endpoint group ({@code group} tag). */
    static final String REQUESTS = "pinion.http.group";
    static final String REQUEST_ERRORS = "pinion.http.group.errors";
    static final String FUNNEL = "pinion.feed.funnel";
    /** The funnel's stages in the order a pin meets them (docs/feed.md); the chart's order. Others follow, by name. */
    static final List<String> FUNNEL_STAGES = List.of("created", "routed", "paged", "pushed", "skipped", "pooled",
            "candidate", "dropped", "held_back", "shown", "persisted", "carried", "consumed", "purged", "trimmed",
            "unfollowed");
    static final String HEDGE_READS = "pinion.hedge.reads";
    static final String HEDGE_DELAY = "pinion.hedge.delay.seconds";
    static final String ENQUEUED = "pinion.queue.enqueued";
    static final String ACKED = "pinion.queue.acked";
    static final String RETRIES = "pinion.queue.retries";

    private static final Comparator<FunnelCount> FUNNEL_ORDER = Comparator
            .comparingInt((FunnelCount count) -> stageRank(count.stage()))
            .thenComparing(FunnelCount::stage, Comparator.nullsLast(Comparator.naturalOrder()))
            .thenComparing(FunnelCount::source, Comparator.nullsFirst(Comparator.naturalOrder()))
            .thenComparing(FunnelCount::reason, Comparator.nullsFirst(Comparator.naturalOrder()));

    private final MeterRegistry registry;
    private final CounterRates<Meter.Id> rates = new CounterRates<>();

    OverviewService(MeterRegistry registry) {
        this.registry = registry;
    }

    /** The overview now; takes a rate sample when the last one is old enough. */
    public Overview overview() {
        Map<Meter.Id, Double> counts = new HashMap<>();
        Collection<Timer> requests = registry.find(REQUESTS).timers();
        for (Timer timer : requests) {
            counts.put(timer.getId(), (double) timer.count());
        }
        Map<String, Counter> errors = new HashMap<>();
        for (Counter counter : counters(REQUEST_ERRORS, counts)) {
            errors.put(counter.getId().getTag("group"), counter);
        }
        Collection<Counter> funnel = counters(FUNNEL, counts);
        Collection<Counter> hedgeReads = counters(HEDGE_READS, counts);
        QueueTally queues =
                new QueueTally(counters(ENQUEUED, counts), counters(ACKED, counts), counters(RETRIES, counts));
        Rates<Meter.Id> rates = this.rates.offer(System.nanoTime(), counts);
        return new Overview(Instant.now(), rounded(rates.seconds()), requestStats(requests, errors, rates),
                funnel(funnel, rates), hedges(hedgeReads, rates), queues.rates(rates));
    }

    private Collection<Counter> counters(String name, Map<Meter.Id, Double> counts) {
        Collection<Counter> found = registry.find(name).counters();
        for (Counter counter : found) {
            counts.put(counter.getId(), counter.count());
        }
        return found;
    }

    /** One row per endpoint group, by the group's name (a stable order for the dashboard's table). */
    private static List<RequestGroupStats> requestStats(Collection<Timer> timers, Map<String, Counter> errors,
            Rates<Meter.Id> rates) {
        List<RequestGroupStats> stats = new ArrayList<>();
        List<Timer> byName = new ArrayList<>(timers);
        byName.sort(Comparator.comparing(timer -> String.valueOf(timer.getId().getTag("group"))));
        for (Timer timer : byName) {
            String group = timer.getId().getTag("group");
            Counter failed = errors.get(group);
            long failedCount = failed == null ? 0 : (long) failed.count();
            double failedRate = failed == null ? 0 : rounded(rates.perSecond(failed.getId()));
            stats.add(new RequestGroupStats(group, timer.count(), rounded(rates.perSecond(timer.getId())),
                    rounded(p99Ms(timer)), failedCount, failedRate));
        }
        return stats;
    }

    private static double p99Ms(Timer timer) {
        for (ValueAtPercentile value : timer.takeSnapshot().percentileValues()) {
            if (value.percentile() == 0.99) {
                return value.value(TimeUnit.MILLISECONDS);
            }
        }
        return 0;
    }

    private static List<FunnelCount> funnel(Collection<Counter> counters, Rates<Meter.Id> rates) {
        return counters.stream()
                .map(counter -> new FunnelCount(
                        counter.getId().getTag("stage"),
                        counter.getId().getTag("source"),
                        counter.getId().getTag("reason"),
                        (long) counter.count(),
                        rounded(rates.perSecond(counter.getId()))))
                .sorted(FUNNEL_ORDER)
                .toList();
    }

    private static int stageRank(String stage) {
        int rank = FUNNEL_STAGES.indexOf(stage);
        return rank < 0 ? FUNNEL_STAGES.size() : rank;
    }

    private List<HedgeStats> hedges(Collection<Counter> reads, Rates<Meter.Id> rates) {
        Map<String, List<OutcomeCount>> byName = new TreeMap<>();
        for (Counter counter : reads) {
            byName.computeIfAbsent(counter.getId().getTag("name"), name -> new ArrayList<>())
                    .add(new OutcomeCount(counter.getId().getTag("outcome"), (long) counter.count(),
                            rounded(rates.perSecond(counter.getId()))));
        }
        Map<String, Double> delays = new HashMap<>();
        for (Gauge gauge : registry.find(HEDGE_DELAY).gauges()) {
            double value = gauge.value() * 1000; // the overview shows milliseconds
            if (Double.isFinite(value)) {
                delays.put(gauge.getId().getTag("name"), rounded(value));
            }
        }
        List<HedgeStats> stats = new ArrayList<>();
        byName.forEach((name, outcomes) -> {
            outcomes.sort(Comparator.comparingInt(outcome -> outcomeRank(outcome.outcome())));
            stats.add(new HedgeStats(name, delays.get(name), outcomes));
        });
        return stats;
    }

    private static int outcomeRank(String tag) {
        for (HedgeOutcome outcome : HedgeOutcome.values()) {
            if (outcome.tag().equals(tag)) {
                return outcome.ordinal();
            }
        }
        return HedgeOutcome.values().length;
    }

    /** Two decimals: rates and milliseconds read better without float noise, and lose nothing the page shows. */
    static double rounded(double value) {
        return Math.round(value * 100) / 100.0;
    }
}
