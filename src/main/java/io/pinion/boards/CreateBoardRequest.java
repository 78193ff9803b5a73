package io.pinion.boards;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

/**
 * Body of {@code POST /v1/boards}.
 */
public record CreateBoardRequest(@NotBlank @Size(max = 100) String name, @Size(max = 500) String description) {
}
