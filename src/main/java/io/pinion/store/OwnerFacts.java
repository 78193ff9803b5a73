package io.pinion.store;

import java.util.Arrays;

/**
 * Values derived from one owner's state and cached with it, such as whether a user follows another: a few
 * key-value pairs, newest first, copied on write. They are dropped whenever the owner is invalidated.
 */
final class OwnerFacts {

    /** Facts kept per owner at most; the oldest goes first. */
    static final int MAX = 16;
    private static final int OVERHEAD = 120;
    private static final int PER_FACT = 96;

    private final Object[] keys;
    private final Object[] values;

    private OwnerFacts(Object[] keys, Object[] values) {
        this.keys = keys;
        this.values = values;
    }

    static OwnerFacts of(Object key, Object value) {
        return new OwnerFacts(new Object[] { key }, new Object[] { value });
    }

    Object get(Object key) {
        for (int i = 0; i < keys.length; i++) {
            if (keys[i].equals(key)) {
                return values[i];
            }
        }
        return null;
    }

    /** These facts with {@code key} set to {@code value} in front. */
    OwnerFacts with(Object key, Object value) {
        int kept = 0;
        Object[] newKeys = new Object[Math.min(MAX, keys.length + 1)];
        Object[] newValues = new Object[newKeys.length];
        newKeys[0] = key;
        newValues[0] = value;
        for (int i = 0; i < keys.length && kept + 1 < newKeys.length; i++) {
            if (!keys[i].equals(key)) {
                kept++;
                newKeys[kept] = keys[i];
                newValues[kept] = values[i];
            }
        }
        return new OwnerFacts(Arrays.copyOf(newKeys, kept + 1), Arrays.copyOf(newValues, kept + 1));
    }

    int weight() {
        return OVERHEAD + PER_FACT * keys.length;
    }
}
