package io.pinion.zookeeper;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.imps.CuratorFrameworkState;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.KeeperException;
import org.jboss.logging.Logger;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.pinion.failure.Unavailable;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;

/**
 * This instance's session with the ZooKeeper ensemble (Apache Curator), under the cluster's root znode. Curator's
 * calls block, so {@link #call} runs them on a worker thread; watches and connection changes arrive on Curator's own
 * event thread. While the ensemble is out of reach the instance keeps what it last read and changes nothing
 * ({@link #connected()} is false, calls fail fast with 503).
 */
@ApplicationScoped
public class Zookeeper {

    private static final Logger LOG = Logger.getLogger(Zookeeper.class);

    private final ZookeeperConfig config;
    private final CuratorFramework client;
    private final List<Consumer<Boolean>> listeners = new CopyOnWriteArrayList<>();
    private final List<java.io.Closeable> recipes = new CopyOnWriteArrayList<>();
    private final String instanceId = newMemberId();
    private volatile boolean connected;
    private volatile long disconnectedSince = System.currentTimeMillis();

    Zookeeper(ZookeeperConfig config, MeterRegistry registry) {
        this.config = config;
        this.client = newClient(config.sessionTimeout());
        client.getConnectionStateListenable().addListener((ignored, state) -> onState(state));
        Gauge.builder("pinion.zookeeper.connected", this, zk -> zk.connected ? 1 : 0)
                .description("Whether this instance has a session with the ZooKeeper ensemble (1) or not (0)")
                .register(registry);
        client.start();
    }

    /** The Curator client, its paths relative to the cluster's root. Its calls block: use it through {@link #call}. */
    CuratorFramework client() {
        return client;
    }

    /**
     * A session of its own under the same root, with its own timeout (a dequeue broker's membership): started, its
     * calls blocking; the caller closes it.
     */
    CuratorFramework newSession(java.time.Duration sessionTimeout) {
        CuratorFramework session = newClient(sessionTimeout);
        session.start();
        return session;
    }

    private CuratorFramework newClient(java.time.Duration sessionTimeout) {
        String root = config.root().replaceAll("^/+|/+$", "");
        return CuratorFrameworkFactory.builder()
                .connectString(config.connect())
                .namespace(root.isEmpty() ? null : root)
                .sessionTimeoutMs((int) sessionTimeout.toMillis())
                .connectionTimeoutMs((int) config.connectionTimeout().toMillis())
                // an operation retries briefly; a longer outage is the connection state's business
                .retryPolicy(new ExponentialBackoffRetry(100, 3, 1_000))
                .build();
    }

    /** This instance's id in the cluster: {@code host-pid-random}, new at every start. */
    public String instanceId() {
        return instanceId;
    }

    /**
     * Whether this process is a member of the cluster (not a one-command run of {@code bin/admin} or {@code bin/seed}).
     */
    public boolean member() {
        return config.member();
    }

    /** Whether the instance has a live session now. */
    public boolean connected() {
        return connected;
    }

    /** Since when the instance has had no session (epoch ms), or 0 while it has one. */
    public long disconnectedSince() {
        return connected ? 0 : disconnectedSince;
    }

    /** Whether the session was closed (the instance is stopping). */
    boolean closed() {
        return client.getState() == CuratorFrameworkState.STOPPED;
    }

    /** The ensemble and root, for reports. */
    public String describe() {
        return config.connect() + config.root();
    }

    /** Waits up to the connection timeout for a session (blocking: at start-up only); whether there is one. */
    boolean awaitConnection() {
        try {
            return client.blockUntilConnected((int) config.connectionTimeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** A round trip to the ensemble (for the {@code backends} health group): the session and the server answering. */
    public Uni<String> ping() {
        return call("ping", () -> {
            client.checkExists().forPath("/");
            return "session 0x" + Long.toHexString(client.getZookeeperClient().getZooKeeper().getSessionId()) + " on "
                    + client.getZookeeperClient().getCurrentConnectionString();
        });
    }

    /** Called with {@code true} on every (re)connection and {@code false} when the connection is lost. */
    void onConnectionChange(Consumer<Boolean> listener) {
        listeners.add(listener);
        if (connected) {
            listener.accept(true);
        }
    }

    /** Runs a blocking Curator call on a worker thread; fails fast with 503 while there is no session. */
    <T> Uni<T> call(String what, Callable<T> call) {
        return Uni.createFrom().<T>item(() -> {
            if (!connected) {
                throw new Unavailable("zookeeper", new IllegalStateException("no ZooKeeper session (" + what + ")"));
            }
            try {
                return call.call();
            } catch (RuntimeException e) {
                throw e;
            } catch (KeeperException.ConnectionLossException | KeeperException.SessionExpiredException
                    | KeeperException.OperationTimeoutException e) {
                throw new Unavailable("zookeeper", e);
            } catch (Exception e) {
                throw new ZookeeperException(what, e);
            }
        }).runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
    }

    private void onState(ConnectionState state) {
        boolean now = state.isConnected();
        if (now == connected && state != ConnectionState.RECONNECTED) {
            return;
        }
        if (!now) {
            disconnectedSince = System.currentTimeMillis();
        }
        connected = now;
        LOG.infof("ZooKeeper %s: %s", describe(), state);
        for (Consumer<Boolean> listener : listeners) {
            try {
                listener.accept(now);
            } catch (RuntimeException e) {
                LOG.warnf(e, "a ZooKeeper connection listener failed");
            }
        }
    }

    /**
     * Closes {@code recipe} (a znode or election kept on this session) before the session itself when the instance
     * stops: a recipe whose session closed first retries without end.
     */
    void closeFirst(java.io.Closeable recipe) {
        recipes.add(0, recipe);
    }

    @PreDestroy
    void close() {
        for (java.io.Closeable recipe : recipes) {
            try {
                recipe.close();
            } catch (java.io.IOException | RuntimeException e) {
                LOG.debugf("closing a ZooKeeper recipe: %s", e.getMessage());
            }
        }
        client.close();
    }

    /** A new id for a member of the cluster: {@code host-pid-random}. */
    public static String newMemberId() {
        String host;
        try {
            host = java.net.InetAddress.getLocalHost().getHostName().replaceAll("[^A-Za-z0-9.-]", "");
        } catch (java.net.UnknownHostException e) {
            host = "host";
        }
        host = host.isEmpty() ? "host" : host.substring(0, Math.min(40, host.length()));
        return host + "-" + ProcessHandle.current().pid() + "-"
                + java.util.UUID.randomUUID().toString().substring(0, 8);
    }
}
