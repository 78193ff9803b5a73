package io.pinion.feed.funnel;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.pinion.failure.Outages;
import io.pinion.feed.FunnelTally;
import io.pinion.feed.store.FeedKeys;
import io.pinion.graph.GraphRedis;
import io.pinion.graph.VirtualShards;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;

/**
 * Adds the per-entity funnel's counts held in memory ({@link FunnelTally}) to Redis, every
 * {@code pinion.feed.funnel.flush-every} and at once when the tally is full: each count goes to its pin, its author
 * and its board, in the minute hash of its day and the hour hash of its month ({@link FunnelBuckets}). Counts for the
 * same key and field are summed first, so an author whose pins were shown a thousand times in a minute costs one
 * {@code HINCRBY}. Pipelines of at most {@value #PER_PIPELINE} commands, one per Redis instance at a time; an instance
 * that fails loses its additions of that pipeline (counted in {@code pinion_feed_funnel_entity_dropped_total} with
 * {@code where=redis}; a count makes up to six additions: three entities, two hashes), the others keep theirs.
 */
@ApplicationScoped
public class FunnelFlusher {

    private static final Logger LOG = Logger.getLogger(FunnelFlusher.class);
    /** Tally entries taken per round; a flush takes rounds until the tally is empty. */
    private static final int PER_ROUND = 20_000;
    /** Commands per pipeline (a client holds a bounded number of commands waiting for their answers). */
    private static final int PER_PIPELINE = 1_000;
    private static final Duration BUSY_RETRY = Duration.ofMillis(20);

    private final FunnelTally tally;
    private final GraphRedis redis;
    private final VirtualShards shards;
    private final Counter written;
    private final Counter droppedInTally;
    private final Counter droppedInRedis;
    private final AtomicBoolean flushing = new AtomicBoolean();

    FunnelFlusher(FunnelTally tally, GraphRedis redis, VirtualShards shards, MeterRegistry registry) {
        this.tally = tally;
        this.redis = redis;
        this.shards = shards;
        this.written = Counter.builder("pinion.feed.funnel.entity.written")
                .description("Additions to the per-entity funnel in Redis (a count adds to its pin, author and board,"
                        + " by minute and by hour)")
                .register(registry);
        this.droppedInTally = Counter.builder("pinion.feed.funnel.entity.dropped")
                .description("Per-entity funnel counts lost: found the tally full (where=tally), or additions a Redis"
                        + " instance did not take (where=redis)")
                .tag("where", "tally").register(registry);
        this.droppedInRedis = Counter.builder("pinion.feed.funnel.entity.dropped")
                .description("Per-entity funnel counts lost: found the tally full (where=tally), or additions a Redis"
                        + " instance did not take (where=redis)")
                .tag("where", "redis").register(registry);
        Gauge.builder("pinion.feed.funnel.entity.held", tally, FunnelTally::size)
                .description("Per-entity funnel entries held in memory until the next flush").register(registry);
        tally.onFull(this::flushNow);
    }

    @Scheduled(every = "${pinion.feed.funnel.flush-every:5s}", delayed = "1s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> scheduled() {
        return flush();
    }

    /**
     * Writes everything the tally holds now, and completes once it is in Redis; one flush at a time (a call during
     * another waits for it to end, then flushes what came meanwhile).
     */
    public Uni<Void> flush() {
        if (!flushing.compareAndSet(false, true)) {
            return Uni.createFrom().voidItem().onItem().delayIt().by(BUSY_RETRY).chain(this::flush);
        }
        return round().eventually(() -> flushing.set(false));
    }

    /** A flush at once (the tally is full); nothing if one is running, which drains it anyway. */
    private void flushNow() {
        if (flushing.get()) {
            return;
        }
        flush().subscribe().with(done -> { }, failure -> LOG.warnf("funnel flush failed: %s",
                Outages.describe(failure)));
    }

    /** A round's work (summing up to {@link #PER_ROUND} entries) runs on a worker thread, not on an event loop. */
    private Uni<Void> round() {
        return Uni.createFrom().voidItem().emitOn(Infrastructure.getDefaultWorkerPool()).chain(this::sendRound);
    }

    private Uni<Void> sendRound() {
        long lost = tally.takeDropped();
        if (lost > 0) {
            droppedInTally.increment(lost);
        }
        List<FunnelTally.Count> counts = tally.drain(PER_ROUND);
        if (counts.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        Map<Target, Map<String, Long>> byTarget = new LinkedHashMap<>();
        for (FunnelTally.Count count : counts) {
            FunnelTally.Key key = count.key();
            long at = key.minute() * FunnelBuckets.MINUTE_MS;
            long day = FunnelBuckets.epochDay(at);
            long month = FunnelBuckets.epochMonth(at);
            String minuteField = FunnelBuckets.field(FunnelBuckets.minuteOfDay(at), key.stage(), key.source(),
                    key.reason());
            String hourField = FunnelBuckets.field(FunnelBuckets.hourOfMonth(at), key.stage(), key.source(),
                    key.reason());
            for (FunnelEntity entity : FunnelEntity.values()) {
                long id = entity.idIn(key.pin());
                if (id == 0) {
                    continue;
                }
                byTarget.computeIfAbsent(new Target(entity, id, true, day), t -> new LinkedHashMap<>())
                        .merge(minuteField, count.n(), Long::sum);
                byTarget.computeIfAbsent(new Target(entity, id, false, month), t -> new LinkedHashMap<>())
                        .merge(hourField, count.n(), Long::sum);
            }
        }
        List<Pipeline> pipelines = new ArrayList<>();
        Pipeline current = new Pipeline();
        pipelines.add(current);
        for (Map.Entry<Target, Map<String, Long>> hash : byTarget.entrySet()) {
            Target target = hash.getKey();
            int vs = shards.ofUser(target.id());
            String key = target.key(vs);
            long expiry = target.expiry();
            for (Map.Entry<String, Long> field : hash.getValue().entrySet()) {
                if (current.size() >= PER_PIPELINE - 1) {
                    // every pipeline that adds to a key also sets its expiry
                    current.add(vs, Request.cmd(Command.EXPIREAT).arg(key).arg(expiry), 0);
                    current = new Pipeline();
                    pipelines.add(current);
                }
                current.add(vs, Request.cmd(Command.HINCRBY).arg(key).arg(field.getKey()).arg(field.getValue()),
                        field.getValue());
            }
            current.add(vs, Request.cmd(Command.EXPIREAT).arg(key).arg(expiry), 0);
        }
        return Multi.createFrom().iterable(pipelines)
                .onItem().transformToUniAndConcatenate(pipeline -> redis.batchAcross(pipeline.targets,
                                pipeline.requests)
                        .onFailure().recoverWithItem(List.of())
                        .invoke(answers -> account(answers, pipeline.added)))
                .collect().last()
                .chain(() -> counts.size() < PER_ROUND ? Uni.createFrom().voidItem() : round());
    }

    /**
     * One hash in Redis: an entity's minute hash of a UTC day ({@code byMinute}, {@code period} the epoch day) or its
     * hour hash of a UTC month. Counts are summed per target before any key is written out, so a round builds each
     * key once. Its hash mixes the id's bits: ids of one shard and type differ only in their low bits.
     */
    private record Target(FunnelEntity entity, long id, boolean byMinute, long period) {

        String key(int vs) {
            return byMinute
                    ? FeedKeys.funnelByMinute(vs, entity.code(), id, period)
                    : FeedKeys.funnelByHour(vs, entity.code(), id, period);
        }

        long expiry() {
            return byMinute ? FunnelBuckets.minuteHashExpiry(period) : FunnelBuckets.hourHashExpiry(period);
        }

        @Override
        public int hashCode() {
            long h = (id ^ period * 0x9e3779b97f4a7c15L) * 0xff51afd7ed558ccdL;
            h ^= h >>> 32;
            return (int) h * 31 + entity.ordinal() * 2 + (byMinute ? 1 : 0);
        }
    }

    /** The commands of one round trip per Redis instance, each with the count it adds (0 for an expiry). */
    private static final class Pipeline {
        final List<Integer> targets = new ArrayList<>();
        final List<Request> requests = new ArrayList<>();
        final List<Long> added = new ArrayList<>();

        void add(int vs, Request request, long n) {
            targets.add(vs);
            requests.add(request);
            added.add(n);
        }

        int size() {
            return requests.size();
        }
    }

    /** Counts what went in and what did not (an instance that failed answers null, or nothing at all). */
    private void account(List<Response> answers, List<Long> added) {
        long in = 0;
        long lost = 0;
        for (int i = 0; i < added.size(); i++) {
            if (i < answers.size() && answers.get(i) != null) {
                in += added.get(i);
            } else {
                lost += added.get(i);
            }
        }
        written.increment(in);
        if (lost > 0) {
            droppedInRedis.increment(lost);
            LOG.warnf("funnel flush: a Redis instance did not take %d entity counts", lost);
        }
    }
}
