package io.pinion.web;

/** 404: the thing asked for does not exist. */
public class NotFoundException extends ApiException {

    public NotFoundException(String code, String message) {
        super(404, code, message);
    }
}
