package io.pinion.boards;

import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

/**
 * Body of {@code PATCH /v1/boards/{id}}: fields left out keep their value.
 */
public record UpdateBoardRequest(
        @Size(min = 1, max = 100) @Pattern(regexp = ".*\\S.*", message = "must not be blank") String name,
        @Size(max = 500) String description) {
}
