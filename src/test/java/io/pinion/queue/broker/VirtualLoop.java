package io.pinion.queue.broker;

import java.util.ArrayDeque;
import java.util.concurrent.Executor;
import java.util.function.LongSupplier;

/**
 * Virtual time and a virtual event loop for one test thread: the clock moves only when the test advances it, and
 * tasks sent to the loop wait until the test runs them, in the order they came.
 */
final class VirtualLoop implements Executor, LongSupplier {

    private final ArrayDeque<Runnable> tasks = new ArrayDeque<>();
    private long now = 1_000_000L;

    @Override
    public long getAsLong() {
        return now;
    }

    long now() {
        return now;
    }

    void advance(long ms) {
        now += ms;
    }

    @Override
    public void execute(Runnable task) {
        tasks.add(task);
    }

    int pending() {
        return tasks.size();
    }

    /** Runs the queued tasks and those they queue, at the current time; fails past 1,000 (a loop that never ends). */
    void runAll() {
        for (int ran = 0; !tasks.isEmpty(); ran++) {
            if (ran == 1_000) {
                throw new AssertionError("the loop keeps sending itself tasks");
            }
            tasks.poll().run();
        }
    }
}
