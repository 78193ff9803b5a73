package io.pinion.failure;

/**
 * A failure the caller can act on, with a stable machine-readable code ({@code board_not_found},
 * {@code invalid_limit}) and a message that names what went wrong — never a class, an address or a stack frame. The
 * kind of failure is its type; which HTTP status a type answers with is decided in one place, by the web layer
 * ({@code io.pinion.web.ErrorMappers}). No stack trace is taken: these are expected outcomes, not bugs.
 */
public abstract class Failure extends RuntimeException {

    private final String code;

    protected Failure(String code, String message) {
        this(code, message, null);
    }

    /** With the failure that caused it (kept for logs; callers see only code and message). */
    protected Failure(String code, String message, Throwable cause) {
        super(message, cause, false, false);
        this.code = code;
    }

    public String code() {
        return code;
    }
}
