package io.pinion.failure;

/**
 * A backend this request needs is down, hung or refusing work for now; other requests keep working. The message
 * names the backend's role ({@code mysql host for shard 42}); the cause, for logs, never reaches the caller.
 */
public class Unavailable extends Failure {

    /** A backend out of reach: code {@code backend_unavailable}. */
    public Unavailable(String role, Throwable cause) {
        super("backend_unavailable", role + " is unavailable; retry shortly", cause);
    }

    private Unavailable(String code, String message, Throwable cause) {
        super(code, message, cause);
    }

    /** Another temporary refusal ({@code overloaded}, {@code virtual_shard_moving}…) with its own code. */
    public static Unavailable refusing(String code, String message) {
        return new Unavailable(code, message, null);
    }
}
