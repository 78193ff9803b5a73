package io.pinion.failure;

/**
 * A backend this request needs is down or hung; other requests keep working. The message
 * names the backend's role ({@code mysql host for shard 42}); the cause, for logs, never reaches the caller.
 */
public class Unavailable extends Failure {

    /** A backend out of reach: code {@code backend_unavailable}. */
    public Unavailable(String role, Throwable cause) {
        super("backend_unavailable", role + " is unavailable; retry shortly", cause);
    }

    /** A kind of unavailability with its own code and message ({@link HostBusy}). */
    protected Unavailable(String code, String message, Throwable cause) {
        super(code, message, cause);
    }
}
