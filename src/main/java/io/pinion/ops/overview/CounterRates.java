package io.pinion.ops.overview;

import java.util.ArrayDeque;
import java.util.Map;

/**
 * Per-second rates of monotonic counts, from samples this instance keeps of them: a sample is taken when counts are
 * offered and the newest sample is at least {@link #SPACING_NANOS} old, and the rates run from the newest sample
 * that is at least {@link #WINDOW_NANOS} old (or the oldest kept, while none is that old) to the newest. A first
 * sample older than {@link #STALE_NANOS} (nobody asked for a while) gives way as soon as two newer ones exist. So
 * callers polling every few seconds, on any number of screens, see rates over about the last ten seconds, and
 * nothing runs between calls.
 *
 * @param <K> what identifies a count
 */
final class CounterRates<K> {

    static final long SPACING_NANOS = 2_000_000_000L;
    static final long WINDOW_NANOS = 10_000_000_000L;
    static final long STALE_NANOS = 2 * WINDOW_NANOS;

    private record Sample<K>(long nanos, Map<K, Double> counts) {
    }

    /**
     * Rates between two samples.
     *
     * @param seconds the time between them; 0 before there are two samples, when every rate is 0
     */
    record Rates<K>(double seconds, Map<K, Double> from, Map<K, Double> to) {

        /** Per second; a count absent from the first sample started at zero since, one absent from the second is 0. */
        double perSecond(K key) {
            if (seconds <= 0) {
                return 0;
            }
            Double last = to.get(key);
            if (last == null) {
                return 0;
            }
            return Math.max(0, last - from.getOrDefault(key, 0.0)) / seconds;
        }
    }

    private final ArrayDeque<Sample<K>> samples = new ArrayDeque<>();

    /** Offers the counts at {@code nanos} (a {@link System#nanoTime()}) and answers the rates in force. */
    synchronized Rates<K> offer(long nanos, Map<K, Double> counts) {
        if (samples.isEmpty() || nanos - samples.peekLast().nanos() >= SPACING_NANOS) {
            samples.addLast(new Sample<>(nanos, Map.copyOf(counts)));
        }
        while (samples.size() > 2 && (nanos - secondOldest().nanos() >= WINDOW_NANOS
                || nanos - samples.peekFirst().nanos() > STALE_NANOS)) {
            samples.removeFirst();
        }
        Sample<K> first = samples.peekFirst();
        Sample<K> last = samples.peekLast();
        return new Rates<>((last.nanos() - first.nanos()) / 1e9, first.counts(), last.counts());
    }

    private Sample<K> secondOldest() {
        var iterator = samples.iterator();
        iterator.next();
        return iterator.next();
    }
}
