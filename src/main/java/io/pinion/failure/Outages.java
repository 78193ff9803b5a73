package io.pinion.failure;

import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.nio.channels.ClosedChannelException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeoutException;

import org.apache.hadoop.hbase.MasterNotRunningException;
import org.apache.hadoop.hbase.client.RetriesExhaustedException;
import org.apache.hadoop.hbase.exceptions.ConnectionClosedException;
import org.apache.hadoop.hbase.exceptions.TimeoutIOException;
import org.apache.hadoop.hbase.ipc.CallTimeoutException;

import io.vertx.core.http.ConnectionPoolTooBusyException;
import io.vertx.mysqlclient.MySQLException;
import io.vertx.sqlclient.ClosedConnectionException;

/**
 * Tells an unreachable or unresponsive backend apart from a bug, by the types in the cause chain: connections refused,
 * closed or timed out, no answer within a deadline (Mutiny's or the JDK's timeout), pools too busy, HBase's retries
 * exhausted and call timeouts, and a MySQL server that is read-only (fenced by a failover).
 */
public final class Outages {

    /** Failures of these types, or of their subtypes, mean the backend did not answer. */
    private static final List<Class<? extends Throwable>> UNAVAILABLE = List.of(
            Unavailable.class,
            ConnectException.class,
            NoRouteToHostException.class,
            ClosedChannelException.class,
            TimeoutException.class);

    /**
     * Failures of exactly these types mean the same; their subtypes may not (HBase's
     * {@code RetriesExhaustedWithDetailsException} also reports failed mutations of a live cluster).
     */
    private static final Set<Class<? extends Throwable>> UNAVAILABLE_EXACTLY = Set.of(
            io.smallrye.mutiny.TimeoutException.class,
            ClosedConnectionException.class,
            ConnectionPoolTooBusyException.class,
            RetriesExhaustedException.class,
            TimeoutIOException.class,
            CallTimeoutException.class,
            ConnectionClosedException.class,
            MasterNotRunningException.class);

    /**
     * MySQL's "the server runs with read-only" (1290, {@code ER_OPTION_PREVENTS_STATEMENT}; 1836,
     * {@code ER_READ_ONLY_MODE}): a master fenced or not yet opened by a failover refuses writes for a moment.
     */
    private static final Set<Integer> MYSQL_READ_ONLY = Set.of(1290, 1836);

    private Outages() {
    }

    /** True when the failure means "the backend did not answer", so the request should get a 503. */
    public static boolean isUnavailable(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (UNAVAILABLE_EXACTLY.contains(t.getClass())) {
                return true;
            }
            if (t instanceof MySQLException mysql && MYSQL_READ_ONLY.contains(mysql.getErrorCode())) {
                return true;
            }
            for (Class<? extends Throwable> type : UNAVAILABLE) {
                if (type.isInstance(t)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * True when the backend itself is out of reach: a connection refused or timed out, or no answer in time. A
     * connection that was open and got closed (a pooled connection to a server that restarted) is not: the next one
     * is fresh. Breakers open on these only.
     */
    public static boolean isOutOfReach(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof ConnectException || t instanceof TimeoutException || t instanceof NoRouteToHostException) {
                return true;
            }
        }
        return false;
    }

    /** A one-line description of the innermost cause, for logs. */
    public static String describe(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage();
        return root.getClass().getSimpleName() + (message == null ? "" : " (" + firstLine(message) + ")");
    }

    private static String firstLine(String message) {
        int newline = message.indexOf('\n');
        String line = newline < 0 ? message : message.substring(0, newline);
        return line.length() > 200 ? line.substring(0, 200) + "…" : line;
    }
}
