package io.pinion.feed.store;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.jboss.logging.Logger;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.pinion.hbase.HBaseCalls;
import io.pinion.topology.HBaseRole;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;

/**
 * Measures how long a write to the materialized feed's primary takes to show up on the standby: writes a marker row
 * (user 0, which no real user has, position 1; the value is a stamp from the write's time) to the primary, then
 * reads it on the standby every {@value #POLL_MS} ms until it carries that stamp or a later one (at most
 * {@value #GIVE_UP_MS} ms). Runs every
 * {@code pinion.feed.lag-probe-interval} (default 5 s) and on demand; the lags go to the timer
 * {@code pinion_feed_standby_lag_seconds} and to a window of the last {@value #WINDOW} probes.
 */
@ApplicationScoped
public class StandbyLag {

    static final int POLL_MS = 5;
    static final int GIVE_UP_MS = 10_000;
    static final int WINDOW = 1000;
    private static final byte[] COLUMN = { 'l' };
    private static final byte[] ROW = new MaterializedKey(0, 1).encode();
    private static final Logger LOG = Logger.getLogger(StandbyLag.class);

    private final FeedTables tables;
    private final StandbyReplication replication;
    private final Timer timer;
    private final Deque<Long> recent = new ArrayDeque<>();
    private final AtomicLong sequence = new AtomicLong();
    private long lost;

    StandbyLag(FeedTables tables, StandbyReplication replication, MeterRegistry registry) {
        this.tables = tables;
        this.replication = replication;
        this.timer = Timer.builder("pinion.feed.standby.lag").description("Time until a write to the materialized"
                        + " feed's primary was readable on the standby (marker probes)")
                .publishPercentiles(0.5, 0.99).publishPercentileHistogram().register(registry);
    }

    @Scheduled(every = "${pinion.feed.lag-probe-interval:5s}", delayed = "10s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> scheduled() {
        if (!replication.separate()) {
            return Uni.createFrom().voidItem();
        }
        return probe().onFailure().recoverWithItem(failure -> {
            LOG.debugf("standby lag probe failed: %s", failure.getMessage());
            return null;
        }).replaceWithVoid();
    }

    /** One probe: the lag in ms, or a failure (primary write failed, or not replicated within the limit). */
    public Uni<Long> probe() {
        long written = System.currentTimeMillis();
        long stamp = written * 1000 + sequence.getAndIncrement() % 1000;
        byte[] value = ByteBuffer.allocate(8).putLong(stamp).array();
        Put put = new Put(ROW).addColumn(FeedTables.MATERIALIZED_FAMILY, COLUMN, value);
        return tables.materialized(HBaseRole.MATERIALIZED_PRIMARY)
                .chain(table -> HBaseCalls.uni(() -> table.put(put)))
                .chain(() -> awaitOnStandby(stamp, System.currentTimeMillis() + GIVE_UP_MS))
                .map(ignored -> {
                    long lag = System.currentTimeMillis() - written;
                    record(lag);
                    return lag;
                })
                .onFailure().invoke(failure -> lost());
    }

    /**
     * Until the standby holds this probe's stamp or a later one: probes share the marker row, and replication keeps
     * the order of a row's writes, so a later stamp there means this one arrived before it.
     */
    private Uni<Void> awaitOnStandby(long stamp, long deadline) {
        Get get = new Get(ROW).addColumn(FeedTables.MATERIALIZED_FAMILY, COLUMN);
        return tables.materialized(HBaseRole.MATERIALIZED_STANDBY)
                .chain(table -> HBaseCalls.uni(() -> table.get(get)))
                .chain(result -> {
                    byte[] seen = result.getValue(FeedTables.MATERIALIZED_FAMILY, COLUMN);
                    if (seen != null && seen.length == 8 && ByteBuffer.wrap(seen).getLong() >= stamp) {
                        return Uni.createFrom().voidItem();
                    }
                    if (System.currentTimeMillis() > deadline) {
                        return Uni.createFrom().failure(new IllegalStateException(
                                "the marker was not on the standby after " + GIVE_UP_MS + " ms"));
                    }
                    return Uni.createFrom().voidItem().onItem().delayIt().by(Duration.ofMillis(POLL_MS))
                            .chain(() -> awaitOnStandby(stamp, deadline));
                });
    }

    private synchronized void record(long lagMs) {
        timer.record(Duration.ofMillis(lagMs));
        recent.addLast(lagMs);
        if (recent.size() > WINDOW) {
            recent.removeFirst();
        }
    }

    private synchronized void lost() {
        lost++;
    }

    /** The window of recent probes. */
    public synchronized LagSummary summary() {
        return LagSummary.of(new ArrayList<>(recent), lost);
    }

    /** Lags in ms over the recent probes; {@code failed} counts probes since start that never saw their marker. */
    public record LagSummary(int probes, long failed, Long p50Ms, Long p99Ms, Long maxMs, Long lastMs) {

        /** Of lags in the order measured. */
        public static LagSummary of(List<Long> lags, long failed) {
            List<Long> sorted = new ArrayList<>(lags);
            sorted.sort(null);
            Long last = lags.isEmpty() ? null : lags.get(lags.size() - 1);
            return new LagSummary(sorted.size(), failed, percentile(sorted, 0.5), percentile(sorted, 0.99),
                    sorted.isEmpty() ? null : sorted.get(sorted.size() - 1), last);
        }

        private static Long percentile(List<Long> sorted, double q) {
            return sorted.isEmpty()
                    ? null
                    : sorted.get((int) Math.min(sorted.size() - 1, Math.floor(q * sorted.size())));
        }
    }
}
