package io.pinion.graph;

import io.pinion.failure.InvalidInput;

/**
 * The per-user lists, each a sorted set scored by follow time and paged newest first.
 */
public enum UserList {
    FOLLOWERS(GraphKeys.FOLLOWERS),
    IMPLICIT_FOLLOWERS(GraphKeys.IMPLICIT_FOLLOWERS),
    FOLLOWING(GraphKeys.FOLLOWING),
    IMPLICIT_FOLLOWING(GraphKeys.IMPLICIT_FOLLOWING),
    BOARDS(GraphKeys.BOARDS),
    INTERESTS(GraphKeys.INTERESTS);

    private final String suffix;

    UserList(String suffix) {
        this.suffix = suffix;
    }

    String suffix() {
        return suffix;
    }

    /** {@code GET /users/{id}/followers?kind=explicit|implicit} */
    public static UserList followers(String kind) {
        return switch (kind == null || kind.isBlank() ? "explicit" : kind) {
            case "explicit" -> FOLLOWERS;
            case "implicit" -> IMPLICIT_FOLLOWERS;
            default -> throw new InvalidInput("invalid_kind", "kind must be explicit or implicit");
        };
    }

    /** {@code GET /users/{id}/following?kind=explicit|implicit|boards|interests} */
    public static UserList following(String kind) {
        return switch (kind == null || kind.isBlank() ? "explicit" : kind) {
            case "explicit" -> FOLLOWING;
            case "implicit" -> IMPLICIT_FOLLOWING;
            case "boards" -> BOARDS;
            case "interests" -> INTERESTS;
            default -> throw new InvalidInput("invalid_kind", "kind must be explicit, implicit, boards or interests");
        };
    }
}
