package io.pinion.breaker;

import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.util.concurrent.TimeoutException;

import io.pinion.failure.HostBusy;
import io.pinion.failure.Overloaded;
import io.vertx.core.http.ConnectionPoolTooBusyException;

/** What a failed call tells a {@link Breaker} of its backend, read from the types in the cause chain. */
public final class BreakerEvidence {

    private BreakerEvidence() {
    }

    /**
     * {@code DOWN} when the backend could not be reached (a connection refused, no route), {@code SLOW} when it gave
     * no answer in time, {@code NONE} otherwise: it answered, or the failure was the service's own (a busy pool, an
     * overload, a busy host).
     */
    public static Breaker.Evidence of(Throwable failure) {
        boolean slow = false;
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof Overloaded || t instanceof HostBusy || t instanceof ConnectionPoolTooBusyException) {
                return Breaker.Evidence.NONE;
            }
            if (t instanceof ConnectException || t instanceof NoRouteToHostException) {
                return Breaker.Evidence.DOWN;
            }
            slow |= t instanceof TimeoutException || t instanceof io.smallrye.mutiny.TimeoutException;
        }
        return slow ? Breaker.Evidence.SLOW : Breaker.Evidence.NONE;
    }
}
