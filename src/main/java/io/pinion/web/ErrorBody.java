package io.pinion.web;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * The one JSON shape of every error response.
 *
 * @param error     a stable, machine-readable code in snake_case, e.g. {@code not_found}, {@code backend_unavailable}
 * @param message   a human-readable explanation
 * @param requestId the request's id, as its {@code X-Request-Id} response header gives it: quote it when reporting
 *                  a problem, it is in every log line of that request
 */
@Schema(name = "Error", description = "Every 4xx/5xx response has this shape.")
public record ErrorBody(
        @Schema(description = "Stable machine-readable code", examples = "not_found") String error,
        @Schema(description = "Human-readable explanation") String message,
        @Schema(description = "The request's id (its X-Request-Id response header), in every log line of it",
                examples = "6f1c2a9e03b4d785") String requestId) {

    public ErrorBody(String error, String message) {
        this(error, message, RequestIds.current());
    }
}
