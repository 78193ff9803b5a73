package io.pinion.failure;

/** The thing asked for does not exist. */
public class NotFound extends Failure {

    public NotFound(String code, String message) {
        super(code, message);
    }
}
