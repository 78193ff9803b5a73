package io.pinion.paging;

import java.util.List;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * Every list answers with this shape; {@code nextCursor} is null on the last page.
 */
public record Page<T>(
        List<T> items,

        @Schema(description = "Opaque cursor for the next page; null on the last page", nullable = true)
        String nextCursor) {}
