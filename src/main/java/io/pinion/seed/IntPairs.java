package io.pinion.seed;

import java.util.Arrays;

/** A growable list of (left, right) int pairs, e.g. (user, board). */
final class IntPairs {

    private int[] left = new int[256];
    private int[] right = new int[256];
    private int size;

    void add(int l, int r) {
        if (size == left.length) {
            left = Arrays.copyOf(left, size * 2);
            right = Arrays.copyOf(right, size * 2);
        }
        left[size] = l;
        right[size] = r;
        size++;
    }

    int size() {
        return size;
    }

    int left(int i) {
        return left[i];
    }

    int right(int i) {
        return right[i];
    }

    int[] left() {
        return Arrays.copyOf(left, size);
    }

    int[] right() {
        return Arrays.copyOf(right, size);
    }
}
