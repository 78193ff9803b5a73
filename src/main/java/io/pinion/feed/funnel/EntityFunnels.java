package io.pinion.feed.funnel;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ObjLongConsumer;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.failure.InvalidInput;
import io.pinion.feed.FeedFunnel;
import io.pinion.feed.store.FeedKeys;
import io.pinion.graph.GraphRedis;
import io.pinion.graph.VirtualShards;
import io.pinion.id.PinionId;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;

/**
 * Reads a pin's, an author's or a board's funnel ({@link FunnelFlusher} writes it): minute buckets for steps under an
 * hour (the last day), hour buckets for steps of whole hours (the last 31 days). One round trip: the entity's hashes
 * of the range (one per day, or one per month) live on one Redis instance.
 */
@ApplicationScoped
public class EntityFunnels {

    /** Most buckets one answer may hold. */
    static final int MAX_BUCKETS = 1_440;

    private final GraphRedis redis;
    private final VirtualShards shards;
    private final FeedFunnel funnel;

    EntityFunnels(GraphRedis redis, VirtualShards shards, FeedFunnel funnel) {
        this.redis = redis;
        this.shards = shards;
        this.funnel = funnel;
    }

    /** The range checked against what is kept; a bad range is a 400 that says what would be answered. */
    public static void check(Instant from, Instant to, Duration step, Instant now) {
        long stepMs = step.toMillis();
        if (stepMs < FunnelBuckets.MINUTE_MS || stepMs % FunnelBuckets.MINUTE_MS != 0
                || stepMs > FunnelBuckets.HOUR_MS && stepMs % FunnelBuckets.HOUR_MS != 0) {
            throw new InvalidInput("invalid_step",
                    "step: whole minutes under an hour (PT1M, PT5M, ...) or whole hours (PT1H, P1D, ...)");
        }
        if (!from.isBefore(to)) {
            throw new InvalidInput("invalid_range", "from must be before to");
        }
        long span = to.toEpochMilli() - from.toEpochMilli();
        if (span / stepMs > MAX_BUCKETS) {
            throw new InvalidInput("invalid_range", "at most " + MAX_BUCKETS + " buckets: widen the step");
        }
        boolean minutes = stepMs < FunnelBuckets.HOUR_MS;
        long kept = minutes ? FunnelBuckets.MINUTES_KEPT_MS : FunnelBuckets.HOURS_KEPT_MS;
        if (from.toEpochMilli() < now.toEpochMilli() - kept - FunnelBuckets.HOUR_MS) {
            throw new InvalidInput("invalid_range", minutes
                    ? "minute buckets are kept for a day: ask for older counts with a step of whole hours"
                    : "hour buckets are kept for 31 days");
        }
    }

    public Uni<FunnelView> read(FunnelEntity entity, PinionId pinionId, Instant from, Instant to, Duration step) {
        check(from, to, step, Instant.now());
        long id = pinionId.value();
        long stepMs = step.toMillis();
        boolean minutes = stepMs < FunnelBuckets.HOUR_MS;
        int vs = shards.ofUser(id);
        List<Long> hashes = new ArrayList<>(); // the day or month of each hash read, in order
        List<Request> reads = new ArrayList<>();
        long first = minutes ? FunnelBuckets.epochDay(from.toEpochMilli())
                : FunnelBuckets.epochMonth(from.toEpochMilli());
        long last = minutes ? FunnelBuckets.epochDay(to.toEpochMilli() - 1)
                : FunnelBuckets.epochMonth(to.toEpochMilli() - 1);
        for (long unit = first; unit <= last; unit++) {
            hashes.add(unit);
            reads.add(Request.cmd(Command.HGETALL).arg(minutes
                    ? FeedKeys.funnelByMinute(vs, entity.code(), id, unit)
                    : FeedKeys.funnelByHour(vs, entity.code(), id, unit)));
        }
        return redis.batch(vs, reads).map(answers -> {
            Map<String, Map<Long, Long>> series = new TreeMap<>();
            for (int i = 0; i < answers.size(); i++) {
                long unitStart = minutes ? hashes.get(i) * FunnelBuckets.DAY_MS
                        : FunnelBuckets.monthStart(hashes.get(i));
                long bucketMs = minutes ? FunnelBuckets.MINUTE_MS : FunnelBuckets.HOUR_MS;
                fields(answers.get(i), (name, count) -> FunnelBuckets.parse(name).ifPresent(field -> {
                    long at = unitStart + field.bucket() * bucketMs;
                    if (at < from.toEpochMilli() || at >= to.toEpochMilli()) {
                        return;
                    }
                    long bucket = from.toEpochMilli() + (at - from.toEpochMilli()) / stepMs * stepMs;
                    String line = field.stage().ordinal() + "|" + field.stage().tag() + "|"
                            + (field.source() == null ? "all" : field.source().label()) + "|" + field.reason().tag();
                    series.computeIfAbsent(line, k -> new TreeMap<>()).merge(bucket, count, Long::sum);
                }));
            }
            List<FunnelView.Line> lines = new ArrayList<>();
            series.entrySet().stream()
                    .sorted(Comparator.comparingInt(e -> Integer.parseInt(e.getKey().split("\\|")[0])))
                    .forEach(e -> {
                        String[] parts = e.getKey().split("\\|");
                        List<FunnelView.Point> points = new ArrayList<>();
                        long total = 0;
                        for (Map.Entry<Long, Long> point : e.getValue().entrySet()) {
                            points.add(new FunnelView.Point(Instant.ofEpochMilli(point.getKey()), point.getValue()));
                            total += point.getValue();
                        }
                        lines.add(new FunnelView.Line(parts[1], parts[2], parts[3], total, points));
                    });
            List<FunnelView.Total> global = funnel.totals().stream()
                    .map(t -> new FunnelView.Total(t.stage().tag(), t.source() == null ? "all" : t.source().label(),
                            t.reason().tag(), t.count()))
                    .toList();
            return new FunnelView(entity.label(), pinionId.toString(), from, to, step.toString(), lines, global);
        });
    }

    /** A hash's fields and counts ({@code HGETALL}: field, value, field, value, ...). */
    private static void fields(Response hash, ObjLongConsumer<String> each) {
        if (hash == null) {
            return;
        }
        for (int i = 0; i + 1 < hash.size(); i += 2) {
            each.accept(hash.get(i).toString(), hash.get(i + 1).toLong());
        }
    }
}
