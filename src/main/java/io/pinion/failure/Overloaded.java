package io.pinion.failure;

/**
 * The service has more work waiting for a backend than it will queue, so it turns this request away at once rather
 * than let it wait: the backend is fine, only busy. A 503 {@code overloaded} with {@link #retryAfterSeconds()}; it
 * never counts against the backend's breaker, and nothing was done, so the same request can be sent again.
 */
public class Overloaded extends Failure {

    private final long retryAfterSeconds;

    public Overloaded(String message) {
        super("overloaded", message, null);
        this.retryAfterSeconds = 1;
    }

    public long retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
