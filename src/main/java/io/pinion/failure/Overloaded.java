package io.pinion.failure;

/**
 * The service has more work waiting for a backend than it will queue, so it turns this request away at once rather
 * than let it wait, or a statement waited past its deadline behind others on a backend that kept answering them: the
 * backend is fine, only busy. A 503 {@code overloaded} with {@link #retryAfterSeconds()}; it never counts against the
 * backend's breaker. Turned away at once, nothing was done; past a deadline (a {@code TimeoutException} cause), the
 * statement's outcome is unknown, as after any timeout.
 */
public class Overloaded extends Failure {

    private final long retryAfterSeconds;

    public Overloaded(String message) {
        this(message, null);
    }

    public Overloaded(String message, Throwable cause) {
        super("overloaded", message, cause);
        this.retryAfterSeconds = 1;
    }

    public long retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
