package io.pinion.web;

import java.util.Locale;

/**
 * The endpoint groups the operator's overview reports request rates and latencies for, told apart by path prefix
 * only: {@link #of(String)} runs on every request, so it compares prefixes and never matches a pattern.
 */
public enum RequestGroup {

    /** {@code /v1/me/home-feed}. */
    FEED,
    /** {@code /v1/pins…}: pins, likes, saves. */
    PINS,
    /** {@code /v1/boards…}: boards and their pin lists. */
    BOARDS,
    /** {@code /v1/users…}, {@code /v1/me…} and {@code /v1/sessions}: sign-up, login, profiles. */
    USERS,
    /** Follows, followers, following and receivers under any resource, and {@code /v1/interests…}. */
    GRAPH,
    /** {@code /v1/queues…} and {@code /v1/jobs…}. */
    QUEUES,
    /** {@code /v1/admin…}. */
    ADMIN,
    /** Everything else: health, metrics, OpenAPI, the dashboard's own files, unknown paths. */
    OTHER;

    private final String tag = name().toLowerCase(Locale.ROOT);

    /** The {@code group} tag, e.g. {@code feed}. */
    public String tag() {
        return tag;
    }

    /** The group of a request path; {@link #OTHER} for a null path. */
    public static RequestGroup of(String path) {
        if (path == null || !path.startsWith("/v1/")) {
            return OTHER;
        }
        if (path.startsWith("/v1/admin")) {
            return ADMIN;
        }
        if (path.startsWith("/v1/me/home-feed")) {
            return FEED;
        }
        if (path.indexOf("/follow", 3) >= 0 || path.endsWith("/receivers") || path.startsWith("/v1/interests")) {
            return GRAPH;
        }
        if (path.startsWith("/v1/pins")) {
            return PINS;
        }
        if (path.startsWith("/v1/boards")) {
            return BOARDS;
        }
        if (path.startsWith("/v1/users") || path.startsWith("/v1/me") || path.startsWith("/v1/sessions")) {
            return USERS;
        }
        if (path.startsWith("/v1/queues") || path.startsWith("/v1/jobs")) {
            return QUEUES;
        }
        return OTHER;
    }
}
