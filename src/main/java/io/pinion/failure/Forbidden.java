package io.pinion.failure;

/** The caller may not do this (someone else's board, a queue not granted). */
public class Forbidden extends Failure {

    public Forbidden(String code, String message) {
        super(code, message);
    }
}
