package io.pinion.failure;

/**
 * A backend that keeps answering, but not this call within its deadline: the call waited behind others, the backend
 * is busy, not down. A 503 {@code overloaded} with {@link #retryAfterSeconds()}, and it never counts against the
 * backend's breaker. It stays an {@link Unavailable} for the callers: the call's outcome is unknown, as after any
 * timeout, so what they retry or repair after an outage they retry or repair after this too.
 */
public class HostBusy extends Unavailable {

    public HostBusy(String role, Throwable cause) {
        super("overloaded", role + " is busy (it answered other calls meanwhile); retry shortly", cause);
    }

    public long retryAfterSeconds() {
        return 1;
    }
}
