package io.pinion.topology;

import java.util.List;

/**
 * A topology that cannot be used, with every problem found.
 */
public class InvalidTopologyException extends RuntimeException {

    private final List<String> problems;

    public InvalidTopologyException(List<String> problems) {
        super("invalid topology: " + String.join("; ", problems));
        this.problems = List.copyOf(problems);
    }

    public List<String> problems() {
        return problems;
    }
}
