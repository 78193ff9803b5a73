package io.pinion.hedge;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;
import io.smallrye.mutiny.subscription.UniEmitter;
import io.smallrye.mutiny.subscription.UniSubscriber;
import io.smallrye.mutiny.subscription.UniSubscription;

/**
 * One hedged read: the primary now, the standby on the primary's failure or when the hedge timer fires, the first
 * item wins and the other side's subscription and the timer are cancelled. Lock-free: a flag decides the winner, a
 * counter of failures decides "both failed", and a subscription cancelled before it arrived is cancelled on arrival.
 */
final class HedgedRace<T> {

    private static final UniSubscription CANCELLED = () -> { };

    private final HedgedReader reader;
    private final UniEmitter<? super HedgedResult<T>> emitter;
    private final Supplier<Uni<T>> standbySource;
    private final Side primary = new Side();
    private final Side standby = new Side();
    private final AtomicReference<Cancellable> timer = new AtomicReference<>();
    private final AtomicBoolean finished = new AtomicBoolean();
    private final AtomicBoolean standbySent = new AtomicBoolean();
    private final AtomicInteger failures = new AtomicInteger();
    private volatile boolean failover;
    private volatile long start;

    HedgedRace(HedgedReader reader, UniEmitter<? super HedgedResult<T>> emitter, Supplier<Uni<T>> standbySource) {
        this.reader = reader;
        this.emitter = emitter;
        this.standbySource = standbySource;
    }

    void start(Supplier<Uni<T>> primarySource) {
        emitter.onTermination(this::cancelAll);
        start = reader.timer().nanoTime();
        long delay = reader.delay().nanos();
        Uni.createFrom().deferred(primarySource::get).subscribe().withSubscriber(primary);
        if (!finished.get() && !standbySent.get()) {
            Cancellable scheduled = reader.timer().schedule(delay, this::hedge);
            if (!timer.compareAndSet(null, scheduled)) {
                scheduled.cancel();
            }
        }
    }

    private void hedge() {
        if (!finished.get() && standbySent.compareAndSet(false, true)) {
            sendStandby();
        }
    }

    private void sendStandby() {
        Uni.createFrom().deferred(standbySource::get).subscribe().withSubscriber(standby);
    }

    private void succeeded(Side side, T item) {
        if (!finished.compareAndSet(false, true)) {
            return;
        }
        cancelTimer();
        HedgeOutcome outcome;
        if (side == primary) {
            reader.delay().record(reader.timer().nanoTime() - start);
            standby.cancel();
            outcome = standbySent.get() ? HedgeOutcome.HEDGED_PRIMARY_WON : HedgeOutcome.PRIMARY;
        } else {
            if (!primary.terminated) {
                reader.delay().record(reader.timer().nanoTime() - start);
            }
            primary.cancel();
            outcome = failover ? HedgeOutcome.FAILOVER : HedgeOutcome.HEDGED_STANDBY_WON;
        }
        reader.settled(outcome);
        emitter.complete(new HedgedResult<>(item, outcome));
    }

    private void failed(Side side, Throwable failure) {
        side.failure = failure;
        boolean both = failures.incrementAndGet() == 2;
        if (side == primary) {
            cancelTimer();
            if (standbySent.compareAndSet(false, true)) {
                failover = true;
                if (!finished.get()) {
                    sendStandby();
                }
                return;
            }
        }
        if (both && finished.compareAndSet(false, true)) {
            reader.settled(HedgeOutcome.BOTH_FAILED);
            emitter.fail(reader.bothFailed(primary.failure, standby.failure));
        }
    }

    /** On completion, failure or the caller's cancellation: nothing of this read may keep running. */
    private void cancelAll() {
        finished.set(true);
        cancelTimer();
        primary.cancel();
        standby.cancel();
    }

    private void cancelTimer() {
        Cancellable scheduled = timer.getAndSet(CANCELLED);
        if (scheduled != null && scheduled != CANCELLED) {
            scheduled.cancel();
        }
    }

    /** One side's subscription. */
    private final class Side implements UniSubscriber<T> {

        private final AtomicReference<UniSubscription> subscription = new AtomicReference<>();
        private volatile boolean terminated;
        private volatile Throwable failure;

        @Override
        public void onSubscribe(UniSubscription s) {
            if (!subscription.compareAndSet(null, s)) {
                s.cancel();
            }
        }

        @Override
        public void onItem(T item) {
            terminated = true;
            succeeded(this, item);
        }

        @Override
        public void onFailure(Throwable f) {
            terminated = true;
            failed(this, f);
        }

        void cancel() {
            UniSubscription s = subscription.getAndSet(CANCELLED);
            if (s != null && s != CANCELLED && !terminated) {
                s.cancel();
            }
        }
    }
}
