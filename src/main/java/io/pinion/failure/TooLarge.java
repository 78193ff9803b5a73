package io.pinion.failure;

/** A body or batch larger than allowed. */
public class TooLarge extends Failure {

    public TooLarge(String code, String message) {
        super(code, message);
    }
}
