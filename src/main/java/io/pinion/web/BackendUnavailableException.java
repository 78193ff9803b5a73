package io.pinion.web;

/** 503: a backend this request needs is down or not answering; other requests keep working. */
public class BackendUnavailableException extends ApiException {

    public BackendUnavailableException(String backend, Throwable cause) {
        super(503, "backend_unavailable", backend + " is unavailable" + (cause == null ? "" : ": " + BackendFailures.describe(cause)),
                cause);
    }
}
