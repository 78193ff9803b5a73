package io.pinion.breaker;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;

import io.smallrye.mutiny.Uni;

/**
 * A circuit breaker for one backend (a MySQL host, a Redis instance). Closed, calls go through. It opens on evidence
 * that the backend is out of reach, not on one slow call: a call that could not reach the backend at all (a
 * connection refused, no route) opens it at once, and calls that got no answer in time open it once
 * {@code timeoutsToOpen} of them came in a row, with no success in between (a hung host times out every call; a busy
 * one answers most); a call that times out after a later-sent call succeeded does not count (it was stuck behind
 * the outage that ended), and timeouts never open it while other calls got answers within the last {@code openMs}
 * (an overloaded service times out some calls of a healthy backend: opening would turn its slowness into errors). Open,
 * calls fail at once for {@code openMs}, without a round trip or a timeout; then one call goes through as a trial (the
 * others still fail at once): its success closes the breaker, its failure of either kind opens it again.
 */
public final class Breaker {

    /** What a failed call tells of the backend. */
    public enum Evidence {
        /** Nothing: the backend answered (an error of the request, a constraint, a busy pool). */
        NONE,
        /** No answer within the call's time limit. */
        SLOW,
        /** The backend could not be reached at all. */
        DOWN
    }

    private final String backend;
    private final long openMs;
    private final int timeoutsToOpen;
    private final Runnable onReject;
    private volatile long openUntil;
    private volatile boolean open;
    private final AtomicBoolean trial = new AtomicBoolean();
    private final AtomicInteger slowInARow = new AtomicInteger();
    /** When the last call that succeeded had started (ns): a call older than it that times out is stale evidence. */
    private volatile long lastSuccessStart = System.nanoTime();
    /** When the last call succeeded (ms): timeouts open the breaker only after {@code openMs} without any answer. */
    private volatile long lastSuccessAt;

    Breaker(String backend, long openMs, int timeoutsToOpen, Runnable onReject) {
        this.backend = backend;
        this.openMs = openMs;
        this.timeoutsToOpen = Math.max(1, timeoutsToOpen);
        this.onReject = onReject;
    }

    public String backend() {
        return backend;
    }

    public boolean isOpen() {
        return open;
    }

    /**
     * Runs the call unless the breaker is open; {@code evidence} tells what a failure says of the backend and
     * {@code rejected} makes the failure of a call that did not go through.
     */
    public <T> Uni<T> call(
            Supplier<Uni<T>> call, Function<Throwable, Evidence> evidence, Supplier<Throwable> rejected) {
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
            long started = System.nanoTime();
            return call.get()
                    .onTermination().invoke((item, failure, cancelled) -> {
                        if (cancelled) {
                            abandoned(wasTrial);
                        } else if (failure != null) {
                            failed(evidence.apply(failure), wasTrial, started);
                        } else {
                            closed(wasTrial, started);
                        }
                    });
        });
    }

    /**
     * Closes the breaker: the backend behind its name changed (a promoted replica now serves the host), so what the
     * old one did says nothing of the new one.
     */
    public void reset() {
        slowInARow.set(0);
        lastSuccessAt = System.currentTimeMillis();
        open = false;
        trial.set(false);
    }

    private void closed(boolean wasTrial, long started) {
        if (started - lastSuccessStart > 0) {
            lastSuccessStart = started;
        }
        lastSuccessAt = System.currentTimeMillis();
        slowInARow.set(0);
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

    private void failed(Evidence evidence, boolean wasTrial, long started) {
        // a call sent before a later call got its answer timed out while the backend was answering: it tells nothing
        boolean stale = started - lastSuccessStart < 0;
        // calls of a backend that still answers others are slow because the service is busy, not the backend
        boolean answering = System.currentTimeMillis() - lastSuccessAt < openMs;
        boolean opens = switch (evidence) {
            case DOWN -> true;
            case SLOW -> wasTrial || (!stale && slowInARow.incrementAndGet() >= timeoutsToOpen && !answering);
            case NONE -> false;
        };
        if (opens) {
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
