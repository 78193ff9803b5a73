package io.pinion.failure;

/** The request cannot be understood as sent (a bad id, limit, cursor or field). */
public class InvalidInput extends Failure {

    public InvalidInput(String code, String message) {
        super(code, message);
    }
}
