package io.pinion.hbase;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Supplier;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;

/**
 * Turns calls of the asynchronous HBase client into {@link Uni}s. The client completes its futures on its own
 * threads; the result is handed back on the caller's Vert.x context (when there is one), so code after an HBase
 * call runs where it started.
 */
public final class HBaseCalls {

    private HBaseCalls() {
    }

    public static <T> Uni<T> uni(Supplier<CompletableFuture<T>> call) {
        return Uni.createFrom().deferred(() -> {
            Context context = Vertx.currentContext();
            Uni<T> result = Uni.createFrom().completionStage(call);
            if (context == null) {
                return result;
            }
            return result.emitOn(command -> context.runOnContext(ignored -> command.run()));
        });
    }

    /**
     * The most mutations one call sends. A region server works through one batch in one handler, holding it (and
     * the callers queued behind it) until the whole batch is applied: a pool of 100,000 rows deleted in one call
     * held a handler for 8 s while every other scan of that server timed out.
     */
    public static final int MAX_BATCH = 2_000;

    /**
     * Sends {@code mutations} in batches of at most {@link #MAX_BATCH}, one after another; fails at the first batch
     * that fails (the earlier batches stay applied: callers' mutations are idempotent).
     */
    public static <M> Uni<Void> inBatches(List<M> mutations, Function<List<M>, CompletableFuture<Void>> send) {
        if (mutations.size() <= MAX_BATCH) {
            return uni(() -> send.apply(mutations));
        }
        int batches = (mutations.size() + MAX_BATCH - 1) / MAX_BATCH;
        return Multi.createFrom().range(0, batches)
                .onItem().transformToUniAndConcatenate(i -> uni(() -> send.apply(
                        mutations.subList(i * MAX_BATCH, Math.min(mutations.size(), (i + 1) * MAX_BATCH)))))
                .collect().last().replaceWithVoid();
    }
}
