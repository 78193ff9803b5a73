package io.pinion.queue;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiFunction;

import io.pinion.failure.Overloaded;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.UniEmitter;

/**
 * Group commit of small enqueues: calls without dedupe keys that arrive while the queue's INSERTs are in flight
 * wait and go together in the next one, so under load many requests share one commit and an idle queue adds no
 * delay. At most {@code inFlight} INSERTs per queue run at once; the more requests arrive meanwhile, the larger
 * the next INSERT (up to {@value #MAX_JOBS} jobs). Each caller gets its own jobs' results, or the failure of the
 * INSERT that carried them.
 */
final class GroupCommit {

    static final int MAX_JOBS = 1_000;

    private record Waiting(List<NewJob> jobs, UniEmitter<? super List<Enqueued>> emitter, long since) {
    }

    /** The calls waiting for a queue's next INSERT, and how many of its INSERTs are in flight. */
    private static final class Lane {
        final ArrayDeque<Waiting> waiting = new ArrayDeque<>();
        int inFlight;
    }

    private final int inFlight;
    private final long maxBytes;
    private final BiFunction<Queue, List<NewJob>, Uni<List<Enqueued>>> write;
    private final QueueMetrics metrics;
    private final Map<Long, Lane> lanes = new ConcurrentHashMap<>();
    private final AtomicLong heldBytes = new AtomicLong();

    GroupCommit(int inFlight, long maxBytes, BiFunction<Queue, List<NewJob>, Uni<List<Enqueued>>> write,
            QueueMetrics metrics) {
        this.metrics = metrics;
        this.inFlight = Math.max(1, inFlight);
        this.maxBytes = maxBytes;
        this.write = write;
    }

    /**
     * Waits for the queue's next INSERT. Fails at once with 503 {@code overloaded} when the bodies the group commit
     * holds (waiting or being written, all queues) and these would pass {@code pinion.queue.group-commit-max-bytes}.
     */
    Uni<List<Enqueued>> submit(Queue queue, List<NewJob> jobs) {
        long bytes = bytes(jobs);
        Lane lane = lanes.computeIfAbsent(queue.id(), id -> new Lane());
        return Uni.createFrom().<List<Enqueued>>emitter(emitter -> {
            if (heldBytes.addAndGet(bytes) > maxBytes && heldBytes.get() > bytes) {
                heldBytes.addAndGet(-bytes);
                emitter.fail(new Overloaded("the service has too many jobs waiting to be written; retry shortly"));
                return;
            }
            synchronized (lane) {
                lane.waiting.add(new Waiting(jobs, emitter, System.nanoTime()));
            }
            pump(queue, lane);
        });
    }

    private static long bytes(List<NewJob> jobs) {
        long bytes = 0;
        for (NewJob job : jobs) {
            bytes += job.body().length;
        }
        return bytes;
    }

    private void pump(Queue queue, Lane lane) {
        while (true) {
            List<Waiting> batch = new ArrayList<>();
            synchronized (lane) {
                if (lane.inFlight >= inFlight || lane.waiting.isEmpty()) {
                    return;
                }
                int size = 0;
                while (!lane.waiting.isEmpty()
                        && (batch.isEmpty() || size + lane.waiting.peek().jobs().size() <= MAX_JOBS)) {
                    Waiting next = lane.waiting.poll();
                    size += next.jobs().size();
                    batch.add(next);
                }
                lane.inFlight++;
            }
            flush(queue, lane, batch);
        }
    }

    private void flush(Queue queue, Lane lane, List<Waiting> batch) {
        List<NewJob> all = new ArrayList<>();
        long sent = System.nanoTime();
        batch.forEach(waiting -> {
            all.addAll(waiting.jobs());
            metrics.groupCommitWait(sent - waiting.since());
        });
        long bytes = bytes(all);
        write.apply(queue, all)
                .onItem().invoke(ignored -> metrics.groupCommitInsert(all.size(), System.nanoTime() - sent))
                .onTermination().invoke(() -> {
                    heldBytes.addAndGet(-bytes);
                    synchronized (lane) {
                        lane.inFlight--;
                    }
                })
                .subscribe().with(results -> {
                    int from = 0;
                    for (Waiting waiting : batch) {
                        int to = from + waiting.jobs().size();
                        waiting.emitter().complete(List.copyOf(results.subList(from, to)));
                        from = to;
                    }
                    pump(queue, lane);
                }, failure -> {
                    batch.forEach(waiting -> waiting.emitter().fail(failure));
                    pump(queue, lane);
                });
    }
}
