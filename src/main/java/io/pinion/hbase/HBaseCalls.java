package io.pinion.hbase;

import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

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
}
