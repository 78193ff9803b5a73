package io.pinion.redis;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.vertx.redis.client.impl.types.ErrorType;

/**
 * Tells an error reply of a Redis server ({@code NOSCRIPT …}, {@code LOADING …}, {@code READONLY …}) from any other
 * failure of a call (a connection refused or closed, a timeout). The Vert.x Redis client of this Quarkus version
 * offers no public type for an error reply, so this class is the one place that knows its internal one
 * ({@code ArchitectureTest} lets no other class use a framework's internal packages).
 */
public final class RedisErrors {

    /** A batch fails as a whole with its failed command's error inside the message ({@code ERR [2] NOSCRIPT …}). */
    private static final Pattern BATCH_ERROR = Pattern.compile("^ERR \\[\\d+\\] (\\S+)");

    private RedisErrors() {
    }

    /**
     * The kind of the server's error reply ({@code NOSCRIPT}, {@code LOADING}, …, also for the failure of a batch),
     * or empty when the failure is not an error reply.
     */
    public static Optional<String> kind(Throwable failure) {
        if (!(failure instanceof ErrorType error)) {
            return Optional.empty();
        }
        String message = error.getMessage() == null ? "" : error.getMessage();
        Matcher batch = BATCH_ERROR.matcher(message);
        if (batch.find()) {
            return Optional.of(batch.group(1));
        }
        int space = message.indexOf(' ');
        return Optional.of(space < 0 ? message : message.substring(0, space));
    }

    /** Whether the failure is the error reply {@code kind} of a single command (not of a batch). */
    public static boolean is(Throwable failure, String kind) {
        return failure instanceof ErrorType error && error.is(kind);
    }
}
