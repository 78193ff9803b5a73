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

    /** The types by code, for decoding without a search: codes are small and permanent. */
    private static final ObjectType[] BY_CODE = byCode();

    private static ObjectType[] byCode() {
        ObjectType[] byCode = new ObjectType[Arrays.stream(values()).mapToInt(ObjectType::code).max().orElse(0) + 1];
        for (ObjectType type : values()) {
            byCode[type.code] = type;
        }
        return byCode;
    }

    public static Optional<ObjectType> ofCode(int code) {
        return code >= 0 && code < BY_CODE.length ? Optional.ofNullable(BY_CODE[code]) : Optional.empty();
    }
}
