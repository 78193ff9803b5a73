package io.pinion.web;

/** 400: the request cannot be understood as sent. */
public class BadRequestException extends ApiException {

    public BadRequestException(String code, String message) {
        super(400, code, message);
    }
}
