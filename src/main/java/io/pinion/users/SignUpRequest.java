package io.pinion.users;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

/**
 * Body of {@code POST /v1/users}.
 */
public record SignUpRequest(
        @NotNull @Pattern(regexp = "[a-z0-9_]{3,30}", message = "must be 3-30 of a-z, 0-9 and _")
        String username,

        @NotNull @Size(min = 8, max = 72, message = "must be 8-72 characters (at most 72 bytes in UTF-8)")
        String password,

        @Size(max = 100) String displayName) {}
