package io.pinion.mysql;

import java.util.concurrent.atomic.AtomicInteger;

import io.smallrye.common.vertx.VertxContext;
import io.vertx.core.Context;
import io.vertx.core.Vertx;

/**
 * Counts the MySQL statements one request runs, in the request's Vert.x context. The web layer reports it as
 * the {@code X-Mysql-Queries} header and the {@code pinion_mysql_queries_per_request} summary.
 */
public final class QueryCount {

    private static final String KEY = "pinion.mysql.queries";

    private QueryCount() {
    }

    static void increment() {
        Context context = Vertx.currentContext();
        if (context != null && VertxContext.isDuplicatedContext(context)) {
            AtomicInteger count = context.getLocal(KEY);
            if (count == null) {
                count = new AtomicInteger();
                context.putLocal(KEY, count);
            }
            count.incrementAndGet();
        }
    }

    /** Statements run so far in the current request, or -1 outside a request. */
    public static int current() {
        return in(Vertx.currentContext());
    }

    /** Statements run so far in the request of {@code context} (its duplicated context), or -1 if it is not one. */
    public static int in(Context context) {
        if (context == null || !VertxContext.isDuplicatedContext(context)) {
            return -1;
        }
        AtomicInteger count = context.getLocal(KEY);
        return count == null ? 0 : count.get();
    }
}
