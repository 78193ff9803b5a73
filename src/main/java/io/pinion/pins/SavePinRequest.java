package io.pinion.pins;

import jakarta.validation.constraints.NotBlank;

/**
 * Body of {@code POST /v1/pins/{id}/saves}: the board (of the caller) to save the pin to.
 */
public record SavePinRequest(@NotBlank String boardId) {
}
