package io.pinion.pins;

/**
 * Body of {@code PUT /v1/boards/{id}/pins/{pinId}/position}: exactly one of {@code before} (place the pin just
 * above that pin) or {@code after} (just below it).
 */
public record MovePinRequest(String before, String after) {
}
