package io.pinion.users;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

/**
 * Body of {@code POST /v1/sessions}.
 */
public record LoginRequest(@NotNull @Size(max = 30) String username, @NotNull @Size(max = 200) String password) {
}
