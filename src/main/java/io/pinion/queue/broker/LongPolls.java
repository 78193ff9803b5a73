package io.pinion.queue.broker;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Supplier;

import io.pinion.queue.LeasedJob;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;

/**
 * Dequeue calls that wait for jobs (long polling). A waiter tries again each time jobs of its queue arrive in a
 * buffer, and answers with what it finds at its deadline; a waiter that ended is forgotten at once, so an idle queue
 * collects no finished waiters. When the instance shuts down, {@link #drain} brings every deadline forward, so the
 * waits end while the load balancer still routes to the instance, before its HTTP server closes.
 */
final class LongPolls {

    private final Vertx vertx;
    private final Map<String, ConcurrentLinkedQueue<Runnable>> waiters = new ConcurrentHashMap<>();
    /** Every wait in progress, each answering at once with what it finds when run. */
    private final Set<Runnable> finishers = ConcurrentHashMap.newKeySet();
    /** When every wait ends at the latest (epoch ms; {@link Long#MAX_VALUE} until a drain). */
    private volatile long drainBy = Long.MAX_VALUE;

    LongPolls(Vertx vertx) {
        this.vertx = vertx;
    }

    /**
     * Waits up to {@code waitMs} for {@code take} to find jobs of the queue. Jobs found by a waiter that lost the
     * race to its own timeout go to {@code unclaimed}.
     */
    Uni<List<LeasedJob>> await(String queueName, long waitMs, Supplier<List<LeasedJob>> take,
            Consumer<List<LeasedJob>> unclaimed) {
        long now = System.currentTimeMillis();
        long deadline = Math.min(now + waitMs, drainBy);
        long wait = Math.max(1, deadline - now);
        return Uni.createFrom().emitter(emitter -> {
            AtomicBoolean done = new AtomicBoolean();
            long timer = vertx.setTimer(wait, ignored -> {
                if (done.compareAndSet(false, true)) {
                    emitter.complete(take.get());
                }
            });
            Runnable finish = () -> {
                if (done.compareAndSet(false, true)) {
                    vertx.cancelTimer(timer);
                    emitter.complete(take.get());
                }
            };
            finishers.add(finish);
            Runnable[] retry = new Runnable[1];
            retry[0] = () -> {
                if (done.get()) {
                    return;
                }
                List<LeasedJob> jobs = take.get();
                if (!jobs.isEmpty() || System.currentTimeMillis() >= deadline) {
                    if (done.compareAndSet(false, true)) {
                        vertx.cancelTimer(timer);
                        emitter.complete(jobs);
                    } else {
                        unclaimed.accept(jobs);
                    }
                } else {
                    waiters.computeIfAbsent(queueName, name -> new ConcurrentLinkedQueue<>()).add(retry[0]);
                }
            };
            emitter.onTermination(() -> {
                done.set(true);
                finishers.remove(finish);
                ConcurrentLinkedQueue<Runnable> queue = waiters.get(queueName);
                if (queue != null) {
                    queue.remove(retry[0]);
                }
            });
            retry[0].run();
        });
    }

    /**
     * Ends every wait within {@code withinMs}: waits in progress answer with what they find by then, and waits that
     * start later end by the same moment.
     */
    void drain(long withinMs) {
        drainBy = System.currentTimeMillis() + withinMs;
        vertx.setTimer(Math.max(1, withinMs), ignored -> List.copyOf(finishers).forEach(Runnable::run));
    }

    /** Jobs of the queue arrived: every waiter tries again. */
    void wake(String queueName) {
        ConcurrentLinkedQueue<Runnable> queue = waiters.get(queueName);
        if (queue != null) {
            Runnable waiter;
            List<Runnable> woken = new ArrayList<>();
            while ((waiter = queue.poll()) != null) {
                woken.add(waiter);
            }
            woken.forEach(Runnable::run);
        }
    }
}
