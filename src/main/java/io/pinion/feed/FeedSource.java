package io.pinion.feed;

import java.util.Arrays;
import java.util.Optional;

/**
 * Where a pin in a user's pools came from. Each source is its own priority queue per user; the code is part of
 * the pool row key and never changes.
 */
public enum FeedSource {
    /** Pins saved to boards the user follows, directly or through their owners. */
    FOLLOWING(1, "following"),
    /** Recent pins from the boards of a pin the user liked or saved. */
    RELATED(2, "related"),
    /** Pins tagged with an interest the user follows. */
    INTERESTS(3, "interests");

    private final int code;
    private final String label;

    FeedSource(int code, String label) {
        this.code = code;
        this.label = label;
    }

    public int code() {
        return code;
    }

    public String label() {
        return label;
    }

    /** The sources by code, for decoding without a search: codes are small and permanent. */
    private static final FeedSource[] BY_CODE = byCode();

    private static FeedSource[] byCode() {
        FeedSource[] byCode = new FeedSource[Arrays.stream(values()).mapToInt(FeedSource::code).max().orElse(0) + 1];
        for (FeedSource source : values()) {
            byCode[source.code] = source;
        }
        return byCode;
    }

    public static Optional<FeedSource> ofCode(int code) {
        return code >= 0 && code < BY_CODE.length ? Optional.ofNullable(BY_CODE[code]) : Optional.empty();
    }
}
