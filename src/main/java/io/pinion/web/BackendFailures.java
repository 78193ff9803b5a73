package io.pinion.web;

import java.io.IOException;
import java.net.ConnectException;
import java.nio.channels.ClosedChannelException;
import java.util.concurrent.TimeoutException;

/**
 * Tells an unreachable or unresponsive backend apart from a bug, by walking the cause chain.
 */
public final class BackendFailures {

    private static final String[] UNAVAILABLE_TYPES = {
            "io.vertx.core.net.ConnectException",
            "io.vertx.sqlclient.ClosedConnectionException",
            "io.vertx.core.http.ConnectionPoolTooBusyException",
            "io.netty.channel.ConnectTimeoutException",
            "io.netty.channel.AbstractChannel$AnnotatedConnectException",
            "io.smallrye.mutiny.TimeoutException",
            "org.apache.hadoop.hbase.client.RetriesExhaustedException",
            "org.apache.hadoop.hbase.exceptions.TimeoutIOException",
            "org.apache.hadoop.hbase.ipc.CallTimeoutException",
            "org.apache.hadoop.hbase.exceptions.ConnectionClosedException",
            "org.apache.hadoop.hbase.MasterNotRunningException",
    };

    private BackendFailures() {
    }

    /** True when the failure means "the backend did not answer", so the request should get a 503. */
    public static boolean isUnavailable(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof BackendUnavailableException
                    || t instanceof ConnectException
                    || t instanceof ClosedChannelException
                    || t instanceof TimeoutException) {
                return true;
            }
            String type = t.getClass().getName();
            for (String unavailable : UNAVAILABLE_TYPES) {
                if (type.equals(unavailable)) {
                    return true;
                }
            }
            if (t instanceof IOException && String.valueOf(t.getMessage()).contains("Connection refused")) {
                return true;
            }
            if (String.valueOf(t.getMessage()).startsWith("Pool closed") || "Connection refused".equals(t.getMessage())) {
                return true;
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
            if (t instanceof ConnectException || t instanceof TimeoutException
                    || t instanceof java.net.NoRouteToHostException) {
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
