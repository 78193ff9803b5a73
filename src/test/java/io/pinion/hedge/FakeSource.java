package io.pinion.hedge;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;
import io.smallrye.mutiny.subscription.UniEmitter;

/**
 * A fake backend: every read is a {@link Call} the test completes by hand, or that completes by itself after a
 * latency in virtual time. Records which reads were subscribed and which were cancelled.
 */
final class FakeSource<T> implements Supplier<Uni<T>> {

    private final List<Call<T>> calls = new ArrayList<>();
    private final VirtualTimer timer;
    private final LongSupplier latencyNanos;
    private final T value;

    private FakeSource(VirtualTimer timer, LongSupplier latencyNanos, T value) {
        this.timer = timer;
        this.latencyNanos = latencyNanos;
        this.value = value;
    }

    /** Reads that answer only when the test says so. */
    static <T> FakeSource<T> manual() {
        return new FakeSource<>(null, null, null);
    }

    /** Reads that answer {@code value} after the given latency of virtual time. */
    static <T> FakeSource<T> timed(VirtualTimer timer, LongSupplier latencyNanos, T value) {
        return new FakeSource<>(timer, latencyNanos, value);
    }

    static <T> FakeSource<T> timed(VirtualTimer timer, Duration latency, T value) {
        return timed(timer, latency::toNanos, value);
    }

    @Override
    public Uni<T> get() {
        Call<T> call = new Call<>();
        calls.add(call);
        return Uni.createFrom().<T>emitter(emitter -> {
            call.emitter = emitter;
            if (timer != null) {
                call.scheduled = timer.schedule(latencyNanos.getAsLong(), () -> call.succeed(value));
            }
        }).onCancellation().invoke(call::cancelled);
    }

    List<Call<T>> calls() {
        return calls;
    }

    Call<T> call(int index) {
        return calls.get(index);
    }

    int count() {
        return calls.size();
    }

    long cancelled() {
        return calls.stream().filter(Call::isCancelled).count();
    }

    /** One read. */
    static final class Call<T> {

        private UniEmitter<? super T> emitter;
        private Cancellable scheduled;
        private boolean cancelled;

        void succeed(T item) {
            emitter.complete(item);
        }

        void fail(Throwable failure) {
            emitter.fail(failure);
        }

        private void cancelled() {
            cancelled = true;
            if (scheduled != null) {
                scheduled.cancel();
            }
        }

        boolean isCancelled() {
            return cancelled;
        }
    }
}
