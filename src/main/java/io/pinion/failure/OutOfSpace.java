package io.pinion.failure;

/** A store has no room left (a shard that used all its local ids). */
public class OutOfSpace extends Failure {

    public OutOfSpace(String code, String message) {
        super(code, message);
    }
}
