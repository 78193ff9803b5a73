package io.pinion.queue;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.UniEmitter;

/**
 * Group commit of acks, per partition: acks that arrive while an UPDATE of their partition is in flight wait and
 * go together in the next one, so concurrent ack calls share one statement and one durable commit, and a lone ack
 * waits for nothing. At most one UPDATE per partition runs at once, carrying up to {@value #MAX_ACKS} acks; a call
 * naming a job that the next UPDATE already carries waits for the one after, so every ack is judged on its own.
 * Each caller gets its own acks' results, in order, or the failure of the UPDATE that carried them. Every UPDATE of a
 * lane is stamped with a later millisecond than the one before, so the classification of an UPDATE that changed fewer
 * rows than asked ({@code updated_at} equal to its stamp) never takes an earlier UPDATE's ack for its own.
 */
final class AckCommit {

    static final int MAX_ACKS = 1_000;

    private record Waiting(JobLocator.Location location, List<Ack> acks, UniEmitter<? super List<String>> emitter) {
    }

    private static final class Lane {
        final ArrayDeque<Waiting> waiting = new ArrayDeque<>();
        boolean inFlight;
        long lastStamp;
    }

    /** Acks jobs of one partition in one statement stamped {@code stamp}; each ack's result, in order. */
    interface Write {
        Uni<List<String>> apply(JobLocator.Location location, List<Ack> acks, long stamp);
    }

    private final Write write;
    private final QueueMetrics metrics;
    private final Map<String, Lane> lanes = new ConcurrentHashMap<>();

    AckCommit(Write write, QueueMetrics metrics) {
        this.write = write;
        this.metrics = metrics;
    }

    /** Acks jobs of one partition with the partition's next UPDATE; the results in the order given. */
    Uni<List<String>> submit(JobLocator.Location location, List<Ack> acks) {
        Lane lane = lanes.computeIfAbsent(location.partition().key(), key -> new Lane());
        return Uni.createFrom().<List<String>>emitter(emitter -> {
            synchronized (lane) {
                lane.waiting.add(new Waiting(location, acks, emitter));
            }
            pump(lane);
        });
    }

    private void pump(Lane lane) {
        List<Waiting> batch = new ArrayList<>();
        long stamp;
        synchronized (lane) {
            if (lane.inFlight || lane.waiting.isEmpty()) {
                return;
            }
            Set<Long> ids = new HashSet<>();
            int size = 0;
            while (!lane.waiting.isEmpty()) {
                Waiting next = lane.waiting.peek();
                if (!batch.isEmpty() && (size + next.acks().size() > MAX_ACKS || !disjoint(next.acks(), ids))) {
                    break;
                }
                lane.waiting.poll();
                next.acks().forEach(ack -> ids.add(ack.id().value()));
                size += next.acks().size();
                batch.add(next);
            }
            lane.inFlight = true;
            // a time no other ack UPDATE of this partition from this instance had: an UPDATE that changed fewer rows
            // than asked tells its own acks from earlier ones by it
            stamp = Math.max(System.currentTimeMillis(), lane.lastStamp + 1);
            lane.lastStamp = stamp;
        }
        flush(lane, batch, stamp);
    }

    private static boolean disjoint(List<Ack> acks, Set<Long> ids) {
        for (Ack ack : acks) {
            if (ids.contains(ack.id().value())) {
                return false;
            }
        }
        return true;
    }

    private void flush(Lane lane, List<Waiting> batch, long stamp) {
        List<Ack> all = new ArrayList<>();
        batch.forEach(waiting -> all.addAll(waiting.acks()));
        long sent = System.nanoTime();
        write.apply(batch.get(0).location(), all, stamp)
                .onItem().invoke(ignored -> metrics.ackCommit(all.size(), batch.size(), System.nanoTime() - sent))
                .onTermination().invoke(() -> {
                    synchronized (lane) {
                        lane.inFlight = false;
                    }
                })
                .subscribe().with(results -> {
                    int from = 0;
                    for (Waiting waiting : batch) {
                        int to = from + waiting.acks().size();
                        waiting.emitter().complete(List.copyOf(results.subList(from, to)));
                        from = to;
                    }
                    pump(lane);
                }, failure -> {
                    batch.forEach(waiting -> waiting.emitter().fail(failure));
                    pump(lane);
                });
    }
}
