package io.pinion.hbase;

import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.AsyncConnection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.security.User;
import org.apache.hadoop.security.UserGroupInformation;
import org.jboss.logging.Logger;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;

/**
 * One HBase cluster and its single {@link AsyncConnection}. The connection is opened on first use and opened
 * again after a failed attempt, so the service starts and keeps serving other requests while a cluster is down.
 *
 * <p>Thread contract: {@link #connection()} may be called on an event loop and never blocks there. What blocks (the
 * Hadoop configuration's parsing of its XML resources on first use, the connection factory's set-up) runs in
 * {@code connect()} on a worker thread, under this object's lock; callers on an event loop read the connection's
 * future through a volatile field and never wait for that lock.
 */
public class HBaseCluster {

    private static final Logger LOG = Logger.getLogger(HBaseCluster.class);

    private final String name;
    private final Supplier<Configuration> configurations;
    private Configuration configuration;
    private volatile CompletableFuture<AsyncConnection> connection;

    /** @param configurations makes the client's configuration, on a worker thread at the first connection */
    HBaseCluster(String name, Supplier<Configuration> configurations) {
        this.name = name;
        this.configurations = configurations;
    }

    public String name() {
        return name;
    }

    /**
     * The cluster's connection. An open one is returned at once; otherwise it is opened on a worker thread
     * (opening does some blocking set-up) and its future shared by concurrent callers.
     */
    public Uni<AsyncConnection> connection() {
        AsyncConnection open = openConnection();
        if (open != null) {
            return Uni.createFrom().item(open);
        }
        return HBaseCalls.uni(() -> CompletableFuture
                .supplyAsync(this::connect, Infrastructure.getDefaultWorkerPool())
                .thenCompose(future -> future));
    }

    private AsyncConnection openConnection() {
        CompletableFuture<AsyncConnection> current = connection;
        if (current != null && current.isDone() && !current.isCompletedExceptionally()) {
            AsyncConnection open = current.join();
            return open.isClosed() ? null : open;
        }
        return null;
    }

    private synchronized CompletableFuture<AsyncConnection> connect() {
        if (connection == null || connection.isCompletedExceptionally() || isClosed(connection)) {
            LOG.debugf("opening HBase connection to %s", name);
            if (configuration == null) {
                configuration = configurations.get();
            }
            connection = ConnectionFactory.createAsyncConnection(configuration, clientUser());
        }
        return connection;
    }

    /**
     * The user the client connects as: the OS user, with simple authentication (the clusters run without
     * Kerberos). Made directly rather than asked of Hadoop's {@code UserGroupInformation.getCurrentUser()}, which
     * reads the calling thread's {@code Subject} through {@code Subject.getSubject}: JDK 23 and later refuse that
     * call, and the client would fail on every connection there.
     */
    private static User clientUser() {
        return User.create(UserGroupInformation.createRemoteUser(System.getProperty("user.name", "pinion")));
    }

    private static boolean isClosed(CompletableFuture<AsyncConnection> future) {
        return future.isDone() && !future.isCompletedExceptionally() && future.join().isClosed();
    }

    synchronized void close() {
        if (connection != null && connection.isDone() && !connection.isCompletedExceptionally()) {
            try {
                connection.join().close();
            } catch (Exception e) {
                LOG.debugf("closing HBase connection to %s: %s", name, e.getMessage());
            }
        }
        connection = null;
    }
}
