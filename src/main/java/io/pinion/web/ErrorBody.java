package io.pinion.web;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * The one JSON shape of every error response.
 *
 * @param error   a stable, machine-readable code in snake_case, e.g. {@code not_found}, {@code backend_unavailable}
 * @param message a human-readable explanation
 */
@Schema(name = "Error", description = "Every 4xx/5xx response has this shape.")
public record ErrorBody(
        @Schema(description = "Stable machine-readable code", examples = "not_found") String error,
        @Schema(description = "Human-readable explanation") String message) {
}
