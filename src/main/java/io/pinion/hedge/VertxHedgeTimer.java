package io.pinion.hedge;

import java.util.concurrent.TimeUnit;

import io.smallrye.mutiny.subscription.Cancellable;
import io.vertx.mutiny.core.Vertx;

/**
 * {@link HedgeTimer} on Vert.x timers (millisecond resolution, rounded up). Scheduled from a Vert.x context, the
 * task runs on that context, so the standby read starts where the primary read did.
 */
public final class VertxHedgeTimer implements HedgeTimer {

    private final Vertx vertx;

    public VertxHedgeTimer(Vertx vertx) {
        this.vertx = vertx;
    }

    @Override
    public long nanoTime() {
        return System.nanoTime();
    }

    @Override
    public Cancellable schedule(long delayNanos, Runnable task) {
        long millis = Math.max(1, TimeUnit.NANOSECONDS.toMillis(delayNanos + 999_999));
        long id = vertx.setTimer(millis, ignored -> task.run());
        return () -> vertx.cancelTimer(id);
    }
}
