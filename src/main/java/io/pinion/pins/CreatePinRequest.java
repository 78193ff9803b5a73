package io.pinion.pins;

import java.util.List;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

/**
 * Body of {@code POST /v1/pins}. Links and images are absolute http(s) URLs; interests are topic names,
 * normalized to lower case.
 */
public record CreatePinRequest(
        @NotBlank String boardId,
        @Size(max = 500) String description,

        @Size(max = 2048) @Pattern(regexp = "https?://[^\\s/$.?#][^\\s]*", message = "must be an absolute http(s) URL")
        String link,

        @NotNull
        @Size(max = 2048)
        @Pattern(regexp = "https?://[^\\s/$.?#][^\\s]*", message = "must be an absolute http(s) URL")
        String imageUrl,

        @Size(max = 10)
        List<
                        @NotNull
                        @Pattern(
                                regexp = "\\s*[A-Za-z0-9][A-Za-z0-9 _-]{0,39}\\s*",
                                message = "must be 1-40 letters, digits, spaces, _ or -")
                        String>
                interests) {}
