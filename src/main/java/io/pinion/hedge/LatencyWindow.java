package io.pinion.hedge;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A histogram of the last {@code window} latencies, cheap to record into from many threads at once.
 * <p>
 * Buckets are log-linear like HdrHistogram's: 16 equal buckets per power of two of microseconds, so a bucket is at
 * most 1/16 of its values wide, from 1 µs up to 33 s (longer values land in the last bucket); 352 buckets in all.
 * The window is {@value #SLICES} slices of {@code window / SLICES} samples: a sample is counted in the current slice
 * and in a running total; when the current slice is full the oldest is subtracted from the total, cleared, and
 * becomes the current one. So the window holds between nine and ten tenths of {@code window} recent samples.
 * Recording is a few atomic increments, without locks; a quantile is one pass over the total's buckets.
 * Concurrent recording during a slice change may count a sample in a neighbouring slice, which is harmless here.
 */
final class LatencyWindow {

    static final int SLICES = 10;
    private static final int SUB_BITS = 4;
    private static final int SUB = 1 << SUB_BITS;
    private static final int MAX_EXPONENT = 24;
    static final int BUCKETS = (MAX_EXPONENT - SUB_BITS + 2) * SUB;

    private final AtomicLongArray[] slices = new AtomicLongArray[SLICES];
    private final AtomicLongArray sliceCounts = new AtomicLongArray(SLICES);
    private final AtomicLongArray total = new AtomicLongArray(BUCKETS);
    private final long sliceSize;
    private volatile int current;

    LatencyWindow(int window) {
        this.sliceSize = Math.max(1, (window + SLICES - 1) / SLICES);
        for (int i = 0; i < SLICES; i++) {
            slices[i] = new AtomicLongArray(BUCKETS);
        }
    }

    /** Counts one latency in microseconds. */
    void record(long micros) {
        int bucket = bucket(micros);
        int slice = current;
        total.incrementAndGet(bucket);
        slices[slice].incrementAndGet(bucket);
        if (sliceCounts.incrementAndGet(slice) == sliceSize) {
            advance(slice);
        }
    }

    private void advance(int full) {
        int next = (full + 1) % SLICES;
        AtomicLongArray oldest = slices[next];
        for (int i = 0; i < BUCKETS; i++) {
            long count = oldest.getAndSet(i, 0);
            if (count != 0) {
                total.addAndGet(i, -count);
            }
        }
        sliceCounts.set(next, 0);
        current = next;
    }

    /** Samples in the window. */
    long size() {
        long size = 0;
        for (int i = 0; i < BUCKETS; i++) {
            size += total.get(i);
        }
        return size;
    }

    /**
     * The latency in microseconds below which {@code quantile} of the window's samples lie, interpolated within its
     * bucket; 0 for an empty window.
     */
    double quantile(double quantile) {
        long[] counts = new long[BUCKETS];
        long size = 0;
        for (int i = 0; i < BUCKETS; i++) {
            counts[i] = Math.max(0, total.get(i));
            size += counts[i];
        }
        if (size == 0) {
            return 0;
        }
        long rank = Math.max(1, (long) Math.ceil(quantile * size));
        long below = 0;
        for (int i = 0; i < BUCKETS; i++) {
            if (below + counts[i] >= rank) {
                return lowerBound(i) + width(i) * (double) (rank - below) / counts[i];
            }
            below += counts[i];
        }
        return lowerBound(BUCKETS - 1) + width(BUCKETS - 1);
    }

    static int bucket(long micros) {
        if (micros < SUB) {
            return (int) Math.max(0, micros);
        }
        int exponent = 63 - Long.numberOfLeadingZeros(micros);
        if (exponent > MAX_EXPONENT) {
            return BUCKETS - 1;
        }
        int shift = exponent - SUB_BITS;
        return (shift + 1) * SUB + (int) ((micros >> shift) - SUB);
    }

    static long lowerBound(int bucket) {
        if (bucket < SUB) {
            return bucket;
        }
        return (long) (SUB + bucket % SUB) << (bucket / SUB - 1);
    }

    static long width(int bucket) {
        return bucket < SUB ? 1 : 1L << (bucket / SUB - 1);
    }
}
