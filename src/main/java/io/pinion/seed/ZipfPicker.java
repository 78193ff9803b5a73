package io.pinion.seed;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Draws one of {@code n} items with weight 1/rank^s, ranks assigned to items in a shuffled order (so the heavy
 * items are not the first ids). One binary search per draw.
 */
final class ZipfPicker {

    private final double[] cumulative;
    private final int[] itemOfRank;

    ZipfPicker(int n, double s, SplittableRandom random) {
        if (n <= 0) {
            throw new IllegalArgumentException("nothing to pick from");
        }
        cumulative = new double[n];
        double total = 0;
        for (int rank = 0; rank < n; rank++) {
            total += 1 / Math.pow(rank + 1, s);
            cumulative[rank] = total;
        }
        itemOfRank = SeedGenerator.shuffled(n, random);
    }

    int next(SplittableRandom random) {
        double point = random.nextDouble() * cumulative[cumulative.length - 1];
        int rank = Arrays.binarySearch(cumulative, point);
        rank = rank >= 0 ? rank : -rank - 1;
        return itemOfRank[Math.min(rank, itemOfRank.length - 1)];
    }
}
