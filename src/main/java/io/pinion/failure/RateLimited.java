package io.pinion.failure;

/** Over a rate limit; {@link #retryAfterSeconds()} says when to try again. */
public class RateLimited extends Failure {

    private final long retryAfterSeconds;

    public RateLimited(String message, long retryAfterSeconds) {
        super("rate_limited", message);
        this.retryAfterSeconds = retryAfterSeconds;
    }

    public long retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
