package io.pinion.failure;

/** No valid credentials: a missing, invalid or expired token, or a wrong password. */
public class Unauthenticated extends Failure {

    public Unauthenticated(String code, String message) {
        super(code, message);
    }
}
