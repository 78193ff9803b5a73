package io.pinion.queue;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/** The life of a job; the code is what the partition table stores. */
public enum JobState {
    PENDING(0),
    RUNNING(1),
    SUCCEEDED(2),
    FAILED(3);

    private final int code;

    JobState(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    public boolean finished() {
        return this == SUCCEEDED || this == FAILED;
    }

    public static JobState ofCode(int code) {
        return values()[code];
    }

    public static Optional<JobState> parse(String text) {
        if (text == null) {
            return Optional.empty();
        }
        String upper = text.trim().toUpperCase(Locale.ROOT);
        return Arrays.stream(values()).filter(state -> state.name().equals(upper)).findFirst();
    }
}
