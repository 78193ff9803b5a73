package io.pinion.id;

import java.util.Arrays;
import java.util.Optional;

/**
 * The registry of object types: the 10-bit type field of a {@link PinionId}. Numbers are permanent.
 */
public enum ObjectType {
    PIN(1, "pin"),
    BOARD(2, "board"),
    USER(3, "user"),
    JOB(4, "job");

    private final int code;
    private final String label;

    ObjectType(int code, String label) {
        this.code = code;
        this.label = label;
    }

    public int code() {
        return code;
    }

    public String label() {
        return label;
    }

    public static Optional<ObjectType> ofCode(int code) {
        return Arrays.stream(values()).filter(type -> type.code == code).findFirst();
    }
}
