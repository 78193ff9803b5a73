package io.pinion.failure;

/** The request conflicts with the state of things (a taken username, a lost lease). */
public class Conflict extends Failure {

    public Conflict(String code, String message) {
        super(code, message);
    }
}
