package io.pinion.queue.broker;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * A broker's own record of when it served which partition: from the moment it claimed it until it had stopped
 * serving it. The last {@value #KEPT} are kept, so that two brokers' records can be compared after the fact.
 */
final class Tenures {

    /** One partition served from {@code from} until {@code until} (epoch ms; null while it still is). */
    record Tenure(String partition, long from, Long until) {
    }

    static final int KEPT = 1_000;

    private final Deque<Tenure> ended = new ArrayDeque<>();
    private final java.util.Map<String, Long> open = new java.util.HashMap<>();

    synchronized void started(String partition, long at) {
        open.put(partition, at);
    }

    synchronized void ended(String partition, long at) {
        Long from = open.remove(partition);
        if (from != null) {
            ended.addLast(new Tenure(partition, from, at));
            while (ended.size() > KEPT) {
                ended.removeFirst();
            }
        }
    }

    /** Ended tenures, oldest first, then the open ones. */
    synchronized List<Tenure> all() {
        List<Tenure> all = new ArrayList<>(ended);
        open.entrySet().stream().sorted(java.util.Map.Entry.comparingByKey())
                .forEach(entry -> all.add(new Tenure(entry.getKey(), entry.getValue(), null)));
        return all;
    }
}
