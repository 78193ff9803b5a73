package io.pinion.web;

/**
 * A failure the client should see with a given HTTP status and error code. Mapped in {@link ErrorMappers}.
 */
public class ApiException extends RuntimeException {

    private final int status;
    private final String code;

    public ApiException(int status, String code, String message) {
        this(status, code, message, null);
    }

    /** With the failure that caused it (kept for logs; the client sees only code and message). */
    public ApiException(int status, String code, String message, Throwable cause) {
        super(message, cause, false, false);
        this.status = status;
        this.code = code;
    }

    public int status() {
        return status;
    }

    public String code() {
        return code;
    }
}
