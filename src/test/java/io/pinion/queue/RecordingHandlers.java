package io.pinion.queue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.queue.work.JobHandler;
import io.pinion.queue.work.JobWorker;
import io.smallrye.mutiny.Uni;

/** In-app handlers used by the queue tests; each records what it ran. */
final class RecordingHandlers {

    private RecordingHandlers() {
    }

    static String body(LeasedJob job) {
        return new String(job.body(), StandardCharsets.UTF_8);
    }

    /** A FIFO queue handled with concurrency 8: records the order in which jobs complete. */
    @ApplicationScoped
    @JobHandler(value = "fifo-test", fifo = true, concurrency = 8, leaseMs = 10_000, internal = false)
    static class Fifo implements JobWorker {

        static final List<String> COMPLETED = new CopyOnWriteArrayList<>();

        @Override
        public Uni<Void> handle(LeasedJob job) {
            return Uni.createFrom().voidItem()
                    .onItem().delayIt().by(Duration.ofMillis(ThreadLocalRandom.current().nextInt(1, 4)))
                    .invoke(() -> COMPLETED.add(body(job)));
        }
    }

    /** Records when each job (its body) was handled. */
    @ApplicationScoped
    @JobHandler(value = "pickup-test", partitions = 1, leaseMs = 5_000, internal = false)
    static class Pickup implements JobWorker {

        static final Map<String, Long> HANDLED_AT = new ConcurrentHashMap<>();

        @Override
        public Uni<Void> handle(LeasedJob job) {
            HANDLED_AT.put(body(job), System.currentTimeMillis());
            return Uni.createFrom().voidItem();
        }
    }

    /** Fails every job whose body is in FAILING; records the time of every attempt per body. */
    @ApplicationScoped
    @JobHandler(value = "flaky-test", maxAttempts = 3, leaseMs = 5_000, partitions = 2, internal = false)
    static class Flaky implements JobWorker {

        static final Set<String> FAILING = ConcurrentHashMap.newKeySet();
        static final Map<String, List<Long>> ATTEMPTS = new ConcurrentHashMap<>();

        @Override
        public Uni<Void> handle(LeasedJob job) {
            String body = body(job);
            ATTEMPTS.computeIfAbsent(body, key -> new CopyOnWriteArrayList<>()).add(System.currentTimeMillis());
            if (FAILING.contains(body)) {
                return Uni.createFrom().failure(new IllegalStateException("refusing " + body));
            }
            return Uni.createFrom().voidItem();
        }
    }
}
