package io.pinion.ops.overview;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.prometheus.Prometheus.Sample;
import io.pinion.prometheus.Prometheus;
import io.smallrye.mutiny.Uni;

/**
 * The dashboard's cluster-wide figures: the same request and queue figures as this instance's {@link Overview}, summed
 * over every instance by the cluster's Prometheus (eight instant queries, side by side). Without a Prometheus it says
 * so; with one that does not answer, the call fails with 503 at once.
 */
@ApplicationScoped
public class ClusterOverviewService {

    /** The meters' names as Prometheus exposes them (the registry's names with underscores and unit suffixes). */
    static final String PROM_REQUESTS = "pinion_http_group_seconds";
    static final String PROM_ERRORS = "pinion_http_group_errors_total";
    static final String PROM_ENQUEUED = "pinion_queue_enqueued_total";
    static final String PROM_ACKED = "pinion_queue_acked_total";

    private final Prometheus prometheus;

    ClusterOverviewService(Prometheus prometheus) {
        this.prometheus = prometheus;
    }

    public Uni<ClusterOverview> overview() {
        if (!prometheus.configured()) {
            return Uni.createFrom().item(ClusterOverview.none());
        }
        String job = prometheus.job().replace("\\", "\\\\").replace("\"", "\\\"");
        return Uni.combine().all().unis(List.of(
                prometheus.query("count(up{job=\"" + job + "\"} == 1)"),
                prometheus.query("sum by (group) (rate(" + PROM_REQUESTS + "_count{job=\"" + job + "\"}[1m]))"),
                prometheus.query("sum by (group) (rate(" + PROM_ERRORS + "{job=\"" + job + "\"}[1m]))"),
                prometheus.query("max by (group) (" + PROM_REQUESTS + "{job=\"" + job + "\",quantile=\"0.99\"})"),
                prometheus.query("sum by (queue) (rate(" + PROM_ENQUEUED + "{job=\"" + job + "\"}[1m]))"),
                prometheus.query("sum by (queue) (rate(" + PROM_ACKED + "{job=\"" + job
                        + "\",outcome=\"success\"}[1m]))"),
                prometheus.query("sum by (queue) (pinion_queue_depth{job=\"" + job + "\"})"),
                prometheus.query("max by (queue) (pinion_queue_oldest_due_age_seconds{job=\"" + job + "\"})")))
                .with(results -> {
                    List<List<Sample>> all = results.stream().map(result -> castSamples(result)).toList();
                    int instances = all.get(0).isEmpty() ? 0 : (int) all.get(0).get(0).value();
                    return new ClusterOverview(true, Instant.now(), instances,
                            groups(by("group", all.get(1)), by("group", all.get(2)), by("group", all.get(3))),
                            queues(by("queue", all.get(4)), by("queue", all.get(5)), by("queue", all.get(6)),
                                    by("queue", all.get(7))));
                });
    }

    @SuppressWarnings("unchecked")
    private static List<Sample> castSamples(Object result) {
        return (List<Sample>) result;
    }

    private static Map<String, Double> by(String label, List<Sample> samples) {
        return samples.stream().filter(sample -> sample.label(label) != null && Double.isFinite(sample.value()))
                .collect(Collectors.toMap(sample -> sample.label(label), Sample::value, (a, b) -> a, TreeMap::new));
    }

    private static List<ClusterOverview.GroupRates> groups(Map<String, Double> rates, Map<String, Double> errors,
            Map<String, Double> p99s) {
        List<ClusterOverview.GroupRates> groups = new ArrayList<>();
        for (String group : keys(rates, errors)) {
            Double p99 = p99s.get(group);
            groups.add(new ClusterOverview.GroupRates(group, round(rates.getOrDefault(group, 0.0)),
                    round(errors.getOrDefault(group, 0.0)), p99 == null ? null : round(p99 * 1000)));
        }
        groups.sort(java.util.Comparator.comparingDouble(ClusterOverview.GroupRates::ratePerSec).reversed());
        return groups;
    }

    private static List<ClusterOverview.QueueFigures> queues(Map<String, Double> enqueued, Map<String, Double> acked,
            Map<String, Double> depth, Map<String, Double> oldest) {
        List<ClusterOverview.QueueFigures> queues = new ArrayList<>();
        for (String queue : keys(enqueued, acked, depth)) {
            queues.add(new ClusterOverview.QueueFigures(queue, round(enqueued.getOrDefault(queue, 0.0)),
                    round(acked.getOrDefault(queue, 0.0)), Math.round(depth.getOrDefault(queue, 0.0)),
                    round(oldest.getOrDefault(queue, 0.0))));
        }
        return queues;
    }

    @SafeVarargs
    private static TreeSet<String> keys(Map<String, Double>... maps) {
        TreeSet<String> keys = new TreeSet<>();
        for (Map<String, Double> map : maps) {
            keys.addAll(map.keySet());
        }
        return keys;
    }

    private static double round(double value) {
        return Math.round(value * 100) / 100.0;
    }
}
