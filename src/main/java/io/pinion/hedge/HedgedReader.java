package io.pinion.hedge;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.DoubleSupplier;
import java.util.function.Supplier;

import org.jboss.logging.Logger;

import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;

/**
 * Reads from a primary and, when needed, a standby copy of the same data, and returns the first answer.
 * <ul>
 * <li>The read goes to the primary. If the primary fails, it goes to the standby at once (failover).</li>
 * <li>If the primary has not answered within the hedge delay, it also goes to the standby; the first item wins,
 * the other side's subscription is cancelled (a failure of one side just leaves the other to answer).</li>
 * <li>If both fail, the read fails with one {@link HedgedReadFailedException}: a 503 with the reader's error code,
 * the primary's failure as cause and the standby's in {@link HedgedReadFailedException#standbyFailure()}.</li>
 * <li>The hedge delay adapts to the primary's latency: the configured quantile (p99.9 by default, so about one read
 * in a thousand is hedged) of the last {@code window} successful primary reads, within floor and ceiling; before
 * {@code min-samples} reads the initial delay (the ceiling by default). See {@link LatencyWindow}.</li>
 * <li>A share of reads ({@code warmup-share}, 1% by default) is also sent to the standby and its answer or failure
 * dropped, to keep the standby's caches warm; it does not change the result or wait for it.</li>
 * <li>After {@value #BREAKER_THRESHOLD} reads in a row that the primary lost, and none won for 500 ms, reads go to
 * the standby alone
 * ({@link HedgeOutcome#STANDBY_ONLY}) instead of each waiting out the delay; every 100 ms one read still races the
 * primary, and the first the primary wins ends this ({@link PrimaryBreaker}).</li>
 * </ul>
 * Nothing blocks: the hedge is a {@link HedgeTimer} task. Several readers can share a registry if their names
 * differ; {@link HedgedReaders} makes one per name. Thread-safe; one reader serves all reads of one kind.
 */
public final class HedgedReader {

    private static final Logger LOG = Logger.getLogger(HedgedReader.class);
    /** Reads in a row the primary must lose before reads skip it, and how often one still tries it then. */
    static final int BREAKER_THRESHOLD = 20;
    static final Duration BREAKER_PROBE = Duration.ofMillis(100);
    /** How long the primary must have won no read before reads skip it. */
    static final Duration BREAKER_MIN_OUTAGE = Duration.ofMillis(500);

    private final String name;
    private final String unavailableCode;
    private final HedgeSettings settings;
    private final HedgeTimer timer;
    private final DoubleSupplier random;
    private final HedgeDelay delay;
    private final HedgeMetrics metrics;
    private final PrimaryBreaker breaker;

    /**
     * @param name what is read, e.g. {@code materialized_feed}: the {@code name} tag of the metrics and the
     *        backend named in the 503 message
     * @param unavailableCode the error code when both sides fail, e.g. {@code feed_unavailable}
     */
    public HedgedReader(String name, String unavailableCode, HedgeSettings settings, HedgeTimer timer,
            MeterRegistry registry) {
        this(name, unavailableCode, settings, timer, registry, () -> ThreadLocalRandom.current().nextDouble());
    }

    /** With the source of the warm-up draws (uniform in [0, 1)), for tests. */
    HedgedReader(String name, String unavailableCode, HedgeSettings settings, HedgeTimer timer, MeterRegistry registry,
            DoubleSupplier random) {
        this.name = name;
        this.unavailableCode = unavailableCode;
        this.settings = settings;
        this.timer = timer;
        this.random = random;
        this.delay = new HedgeDelay(settings);
        this.metrics = new HedgeMetrics(registry, name, delay);
        this.breaker = new PrimaryBreaker(BREAKER_THRESHOLD, BREAKER_PROBE.toNanos(), BREAKER_MIN_OUTAGE.toNanos(),
                timer.nanoTime());
    }

    /** The first answer of primary and standby, as described above. The sources are called at subscription. */
    public <T> Uni<T> read(Supplier<Uni<T>> primary, Supplier<Uni<T>> standby) {
        return readWithOutcome(primary, standby)
                .map(HedgedResult::value);
    }

    /** As {@link #read}, with which side answered and why. */
    public <T> Uni<HedgedResult<T>> readWithOutcome(Supplier<Uni<T>> primary, Supplier<Uni<T>> standby) {
        return Uni.createFrom().deferred(() -> breaker.standbyOnly(timer.nanoTime())
                ? standbyOnly(primary, standby) : race(primary, standby));
    }

    /**
     * While the primary keeps losing: the standby alone. If it fails, or has not answered within the hedge delay
     * (it is cancelled then), the read runs the usual race instead.
     */
    private <T> Uni<HedgedResult<T>> standbyOnly(Supplier<Uni<T>> primary, Supplier<Uni<T>> standby) {
        return Uni.createFrom().emitter(emitter -> {
            AtomicBoolean decided = new AtomicBoolean();
            AtomicReference<Cancellable> fallback = new AtomicReference<>();
            Runnable raceInstead =
                    () -> fallback.set(race(primary, standby).subscribe().with(emitter::complete, emitter::fail));
            AtomicReference<Cancellable> alone = new AtomicReference<>();
            Cancellable timeout = timer.schedule(delay.nanos(), () -> {
                if (decided.compareAndSet(false, true)) {
                    cancel(alone.get());
                    raceInstead.run();
                }
            });
            alone.set(Uni.createFrom()
                    .deferred(standby::get)
                    .subscribe()
                    .with(
                            value -> {
                                if (decided.compareAndSet(false, true)) {
                                    timeout.cancel();
                                    metrics.read(HedgeOutcome.STANDBY_ONLY);
                                    emitter.complete(new HedgedResult<>(value, HedgeOutcome.STANDBY_ONLY));
                                }
                            },
                            failure -> {
                                if (decided.compareAndSet(false, true)) {
                                    timeout.cancel();
                                    raceInstead.run();
                                }
                            }));
            emitter.onTermination(() -> {
                decided.set(true);
                timeout.cancel();
                cancel(alone.get());
                cancel(fallback.get());
            });
        });
    }

    private static void cancel(Cancellable subscription) {
        if (subscription != null) {
            subscription.cancel();
        }
    }

    private <T> Uni<HedgedResult<T>> race(Supplier<Uni<T>> primary, Supplier<Uni<T>> standby) {
        return Uni.createFrom().emitter(emitter -> {
            new HedgedRace<T>(this, emitter, standby).start(primary);
            if (settings.warmupShare() > 0 && random.getAsDouble() < settings.warmupShare()) {
                warmUp(standby);
            }
        });
    }

    private <T> void warmUp(Supplier<Uni<T>> standby) {
        metrics.warmup();
        Uni.createFrom().deferred(standby::get).subscribe().with(
                ignored -> { },
                failure -> LOG.debugf("warm-up read of %s on the standby failed: %s", name, failure.getMessage()));
    }

    /** The hedge delay in force now. */
    public Duration currentDelay() {
        return Duration.ofNanos(delay.nanos());
    }

    public String name() {
        return name;
    }

    public String unavailableCode() {
        return unavailableCode;
    }

    public HedgeSettings settings() {
        return settings;
    }

    HedgeTimer timer() {
        return timer;
    }

    HedgeDelay delay() {
        return delay;
    }

    HedgeMetrics metrics() {
        return metrics;
    }

    /** A raced read ended: counted, and told to the breaker. */
    void settled(HedgeOutcome outcome) {
        metrics.read(outcome);
        breaker.record(outcome, timer.nanoTime());
    }

    /** Whether reads currently skip the primary. */
    public boolean primarySkipped() {
        return breaker.isOpen();
    }

    HedgedReadFailedException bothFailed(Throwable primaryFailure, Throwable standbyFailure) {
        return new HedgedReadFailedException(name, unavailableCode, primaryFailure, standbyFailure);
    }
}
