package io.pinion.hedge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;

/**
 * Real threads: sides answering, failing or hanging on a pool of four threads, within tenths of a millisecond of a
 * hedge timer on the same pool, so that every ordering of answer, failure, hedge and failover happens. Whatever
 * the interleaving, each read ends exactly once with a consistent outcome and no hanging side stays subscribed.
 */
class HedgedRaceConcurrencyTest {

    enum Side { ANSWERS, FAILS, HANGS }

    record Call(Side behaviour, AtomicBoolean cancelled) {
    }

    final ScheduledExecutorService pool = Executors.newScheduledThreadPool(4);
    final ConcurrentLinkedQueue<Call> calls = new ConcurrentLinkedQueue<>();

    @AfterEach
    void stop() {
        pool.shutdownNow();
    }

    HedgeTimer poolTimer() {
        return new HedgeTimer() {
            public long nanoTime() {
                return System.nanoTime();
            }

            public Cancellable schedule(long delayNanos, Runnable task) {
                var future = pool.schedule(task, delayNanos, TimeUnit.NANOSECONDS);
                return () -> future.cancel(false);
            }
        };
    }

    /** A source whose read answers {@code value}, fails or hangs, after up to 200 µs, on the pool. */
    Uni<String> source(Side behaviour, String value, long latencyNanos) {
        Call call = new Call(behaviour, new AtomicBoolean());
        calls.add(call);
        return Uni.createFrom().<String>emitter(emitter -> {
            if (behaviour != Side.HANGS) {
                pool.schedule(() -> {
                    if (behaviour == Side.ANSWERS) {
                        emitter.complete(value);
                    } else {
                        emitter.fail(new IOException(value + " down"));
                    }
                }, latencyNanos, TimeUnit.NANOSECONDS);
            }
        }).onCancellation().invoke(() -> call.cancelled().set(true));
    }

    @Test
    void everyReadEndsOnceConsistentlyAndLeavesNoHangingSideSubscribed() throws InterruptedException {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        HedgeSettings settings = new HedgeSettings(0.999, Duration.ofNanos(100_000), Duration.ofNanos(100_000),
                Duration.ofNanos(100_000), 10_000, 1_000, 0.0);
        HedgedReader reader = new HedgedReader("race", "race_unavailable", settings, poolTimer(), registry);
        Side[][] scenarios = {
            {Side.ANSWERS, Side.ANSWERS},
            {Side.ANSWERS, Side.FAILS},
            {Side.FAILS, Side.ANSWERS},
            {Side.FAILS, Side.FAILS},
            {Side.HANGS, Side.ANSWERS},
            {Side.ANSWERS, Side.HANGS}
        };
        int reads = 4_000;
        Random random = new Random(3);
        CountDownLatch done = new CountDownLatch(reads);
        List<AtomicInteger> signals = new ArrayList<>();
        List<AtomicReference<Object>> results = new ArrayList<>();
        List<Side[]> chosen = new ArrayList<>();
        for (int i = 0; i < reads; i++) {
            Side[] scenario = scenarios[random.nextInt(scenarios.length)];
            long primaryLatency = random.nextInt(200_000);
            long standbyLatency = random.nextInt(200_000);
            AtomicInteger count = new AtomicInteger();
            AtomicReference<Object> result = new AtomicReference<>();
            signals.add(count);
            results.add(result);
            chosen.add(scenario);
            reader.readWithOutcome(() -> source(scenario[0], "p", primaryLatency),
                    () -> source(scenario[1], "s", standbyLatency)).subscribe().with(
                            item -> { result.set(item); count.incrementAndGet(); done.countDown(); },
                            failure -> { result.set(failure); count.incrementAndGet(); done.countDown(); });
        }
        assertTrue(done.await(20, TimeUnit.SECONDS), done.getCount() + " reads did not end");
        pool.shutdown();
        assertTrue(pool.awaitTermination(5, TimeUnit.SECONDS));

        for (int i = 0; i < reads; i++) {
            assertEquals(1, signals.get(i).get(), "read " + i);
            Side[] scenario = chosen.get(i);
            Object result = results.get(i).get();
            if (scenario[0] == Side.FAILS && scenario[1] == Side.FAILS) {
                assertInstanceOf(HedgedReadFailedException.class, result);
            } else if (result instanceof HedgedResult<?> answer && answer.value().equals("p")) {
                assertTrue(Set.of(HedgeOutcome.PRIMARY, HedgeOutcome.HEDGED_PRIMARY_WON).contains(answer.outcome()));
                assertEquals(Side.ANSWERS, scenario[0]);
            } else {
                HedgedResult<?> answer = assertInstanceOf(HedgedResult.class, result);
                // STANDBY_ONLY: the breaker opened after a run of primary losses
                assertTrue(Set.of(HedgeOutcome.FAILOVER, HedgeOutcome.HEDGED_STANDBY_WON, HedgeOutcome.STANDBY_ONLY)
                        .contains(answer.outcome()));
                assertEquals(Side.ANSWERS, scenario[1]);
            }
        }
        assertTrue(calls.stream().filter(c -> c.behaviour() == Side.HANGS).allMatch(c -> c.cancelled().get()),
                "every hanging side was cancelled");
        assertEquals(
                reads,
                registry.get("pinion.hedge.reads").counters().stream()
                        .mapToDouble(c -> c.count())
                        .sum());
        for (HedgeOutcome outcome : HedgeOutcome.values()) {
            if (outcome == HedgeOutcome.STANDBY_ONLY) {
                continue; // only after 20 primary losses in a row, which these random scenarios may not produce
            }
            assertTrue(registry.get("pinion.hedge.reads").tag("outcome", outcome.tag()).counter().count() > 0,
                    "the races reached " + outcome);
        }
    }
}
