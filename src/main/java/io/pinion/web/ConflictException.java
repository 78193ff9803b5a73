package io.pinion.web;

/** 409: the request conflicts with existing state (e.g. a taken username). */
public class ConflictException extends ApiException {

    public ConflictException(String code, String message) {
        super(409, code, message);
    }
}
