package io.pinion.hedge;

import java.time.Duration;
import java.util.Comparator;
import java.util.PriorityQueue;

import io.smallrye.mutiny.subscription.Cancellable;

/** Virtual time for one test thread: tasks run, in time order, only when the test advances the clock. */
final class VirtualTimer implements HedgeTimer {

    private record Task(long due, long sequence, Runnable action) {
    }

    private final PriorityQueue<Task> tasks = new PriorityQueue<>(
            Comparator.comparingLong(Task::due).thenComparingLong(Task::sequence));
    private long now = 1_000_000_000L;
    private long sequence;

    @Override
    public long nanoTime() {
        return now;
    }

    @Override
    public Cancellable schedule(long delayNanos, Runnable action) {
        Task task = new Task(now + delayNanos, sequence++, action);
        tasks.add(task);
        return () -> tasks.remove(task);
    }

    /** Moves the clock forward, running every task that falls due on the way at its own time. */
    void advance(Duration duration) {
        long until = now + duration.toNanos();
        while (!tasks.isEmpty() && tasks.peek().due() <= until) {
            Task task = tasks.poll();
            now = task.due();
            task.action().run();
        }
        now = until;
    }

    /** Runs tasks until none is left. */
    void runAll() {
        while (!tasks.isEmpty()) {
            Task task = tasks.poll();
            now = Math.max(now, task.due());
            task.action().run();
        }
    }

    int pending() {
        return tasks.size();
    }
}
