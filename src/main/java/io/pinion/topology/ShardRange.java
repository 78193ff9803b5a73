package io.pinion.topology;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * An inclusive range of shard numbers, written in JSON as a two-element array {@code [from, to]}.
 */
public record ShardRange(int from, int to) {

    public ShardRange {
        if (from < 0 || to < from) {
            throw new IllegalArgumentException("bad shard range [" + from + ", " + to + "]");
        }
    }

    @JsonCreator
    static ShardRange fromJson(int[] pair) {
        if (pair == null || pair.length != 2) {
            throw new IllegalArgumentException("a shard range is a two-element array [from, to]");
        }
        return new ShardRange(pair[0], pair[1]);
    }

    @JsonValue
    int[] toJson() {
        return new int[] { from, to };
    }

    public boolean contains(int shard) {
        return shard >= from && shard <= to;
    }

    public int size() {
        return to - from + 1;
    }

    public boolean overlaps(ShardRange other) {
        return from <= other.to && other.from <= to;
    }

    @Override
    public String toString() {
        return "[" + from + ", " + to + "]";
    }
}
