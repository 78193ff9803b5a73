package io.pinion.breaker;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import java.util.function.Supplier;

import io.smallrye.mutiny.Uni;

/**
 * A circuit breaker for one backend (a MySQL host, a Redis instance). Closed, calls go through. A call that fails
 * because the backend is down or hung opens it for {@code openMs}: calls then fail at once, without a round trip
 * or a timeout. After that time one call goes through as a trial (the others still fail at once); its success
 * closes the breaker, its failure opens it again.
 */
public final class Breaker {

    private final String backend;
    private final long openMs;
    private final Runnable onReject;
    private volatile long openUntil;
    private volatile boolean open;
    private final AtomicBoolean trial = new AtomicBoolean();

    Breaker(String backend, long openMs, Runnable onReject) {
        this.backend = backend;
        this.openMs = openMs;
        this.onReject = onReject;
    }

    public String backend() {
        return backend;
    }

    public boolean isOpen() {
        return open;
    }

    /**
     * Runs the call unless the breaker is open; {@code outage} tells the failures that mean "the backend is down"
     * and {@code rejected} makes the failure of a call that did not go through.
     */
    public <T> Uni<T> call(Supplier<Uni<T>> call, Predicate<Throwable> outage, Supplier<Throwable> rejected) {
        return Uni.createFrom().deferred(() -> {
            boolean isTrial = false;
            if (open) {
                if (System.currentTimeMillis() < openUntil || !trial.compareAndSet(false, true)) {
                    onReject.run();
                    return Uni.createFrom().failure(rejected);
                }
                isTrial = true;
            }
            boolean wasTrial = isTrial;
            return call.get()
                    .onTermination().invoke((item, failure, cancelled) -> {
                        if (cancelled) {
                            abandoned(wasTrial);
                        } else if (failure != null) {
                            failed(failure, outage, wasTrial);
                        } else {
                            closed(wasTrial);
                        }
                    });
        });
    }

    private void closed(boolean wasTrial) {
        open = false;
        if (wasTrial) {
            trial.set(false);
        }
    }

    /** A call given up by its caller (a budget, a sibling's failure) tells nothing; a trial may run again. */
    private void abandoned(boolean wasTrial) {
        if (wasTrial) {
            trial.set(false);
        }
    }

    private void failed(Throwable failure, Predicate<Throwable> outage, boolean wasTrial) {
        if (outage.test(failure)) {
            openUntil = System.currentTimeMillis() + openMs;
            open = true;
        } else if (wasTrial) {
            open = false;
        }
        if (wasTrial) {
            trial.set(false);
        }
    }
}
