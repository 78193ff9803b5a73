package io.pinion.hedge;

import io.pinion.failure.Unavailable;

/**
 * A hedged read failed on the primary and on the standby: a 503 with the error code the reader was made with
 * (e.g. {@code feed_unavailable}), and a message naming the backend's role; both failures stay on the exception, for
 * logs.
 * <p>
 * The primary's failure is the {@linkplain #getCause() cause} and the standby's is {@link #standbyFailure()}. It is
 * not attached as a suppressed exception because {@code Failure} is built with suppression disabled
 * ({@code addSuppressed} would silently drop it).
 */
public class HedgedReadFailedException extends Unavailable {

    private final String code;
    private final String message;
    private final Throwable standbyFailure;

    public HedgedReadFailedException(String backend, String code, Throwable primaryFailure, Throwable standbyFailure) {
        super(backend, primaryFailure);
        this.code = code;
        this.standbyFailure = standbyFailure;
        this.message = backend + " is unavailable on primary and standby; retry shortly";
    }

    @Override
    public String code() {
        return code;
    }

    @Override
    public String getMessage() {
        return message;
    }

    public Throwable primaryFailure() {
        return getCause();
    }

    public Throwable standbyFailure() {
        return standbyFailure;
    }
}
