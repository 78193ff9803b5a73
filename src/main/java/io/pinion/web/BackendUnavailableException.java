package io.pinion.web;

/**
 * 503: a backend this request needs is down or not answering; other requests keep working. The message names the
 * backend's role ({@code mysql host for shard 42}); the cause, for logs, never reaches the client.
 */
public class BackendUnavailableException extends ApiException {

    public BackendUnavailableException(String role, Throwable cause) {
        super(503, "backend_unavailable", role + " is unavailable; retry shortly", cause);
    }
}
