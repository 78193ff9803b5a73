package io.pinion.web;

/**
 * Error codes and default messages for plain HTTP statuses raised by the framework (unknown path, wrong method…).
 */
final class HttpCodes {

    private HttpCodes() {
    }

    static String codeOf(int status) {
        return switch (status) {
            case 400 -> "bad_request";
            case 401 -> "unauthorized";
            case 403 -> "forbidden";
            case 404 -> "not_found";
            case 405 -> "method_not_allowed";
            case 406 -> "not_acceptable";
            case 409 -> "conflict";
            case 413 -> "payload_too_large";
            case 415 -> "unsupported_media_type";
            case 429 -> "too_many_requests";
            case 503 -> "backend_unavailable";
            default -> status >= 500 ? "internal_error" : "bad_request";
        };
    }

    static String messageOf(int status, String given) {
        if (given != null && !given.isBlank() && !given.startsWith("HTTP " + status)) {
            return given;
        }
        return switch (status) {
            case 401 -> "a valid bearer token is required";
            case 403 -> "not allowed for this user";
            case 404 -> "no such resource";
            case 405 -> "this method is not allowed on this resource";
            case 406 -> "the requested media type cannot be produced";
            case 415 -> "the request body must be application/json";
            default -> "request failed with status " + status;
        };
    }
}
