package io.pinion.web;

/** 403: the authenticated user may not do this (e.g. change someone else's board). */
public class ForbiddenException extends ApiException {

    public ForbiddenException(String message) {
        super(403, "forbidden", message);
    }
}
