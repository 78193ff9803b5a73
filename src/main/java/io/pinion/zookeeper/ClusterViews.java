package io.pinion.zookeeper;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;

import org.apache.curator.framework.recipes.nodes.PersistentNode;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.jboss.logging.Logger;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.smallrye.mutiny.Uni;

/**
 * What each live instance sees, published as an ephemeral znode per instance ({@code <root>/instances/<id>}, gone
 * when its session ends): the topology version it has in force, whether it checks the MySQL masters, and those it
 * cannot reach. The
 * failover leader counts these reports before it promotes, and a promotion waits until every live instance is on
 * the new topology version before it opens the new master.
 */
@ApplicationScoped
public class ClusterViews {

    static final String PATH = "/instances";

    private static final Logger LOG = Logger.getLogger(ClusterViews.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * One instance's report.
     *
     * @param checksMysql whether it checks the MySQL masters (automatic failover on): only such reports count in a
     *                    failover decision
     */
    public record View(String instance, long topologyVersion, boolean checksMysql, Set<String> mysqlUnreachable) {
    }

    private final Zookeeper zookeeper;
    private final AtomicBoolean scheduled = new AtomicBoolean();
    private final ExecutorService writer = Executors.newSingleThreadExecutor(task -> {
        Thread thread = new Thread(task, "pinion-cluster-view");
        thread.setDaemon(true);
        return thread;
    });
    private final AtomicBoolean counting = new AtomicBoolean();
    /**
     * Counts the live instances, apart from the views' writer: a write may block (until its node exists), and the
     * count must not wait behind it.
     */
    private final ExecutorService counter = Executors.newSingleThreadExecutor(task -> {
        Thread thread = new Thread(task, "pinion-cluster-count");
        thread.setDaemon(true);
        return thread;
    });
    private PersistentNode node;
    private volatile View mine;
    private volatile int live = 1;

    ClusterViews(Zookeeper zookeeper) {
        this.zookeeper = zookeeper;
        this.mine = new View(zookeeper.instanceId(), -1, false, Set.of());
    }

    /** This instance's id in the cluster. */
    public String instanceId() {
        return zookeeper.instanceId();
    }

    /** Publishes the topology version now in force here. */
    public void topologyApplied(long version) {
        publish(new View(mine.instance(), version, mine.checksMysql(), mine.mysqlUnreachable()));
    }

    /** Says from now on that this instance checks the MySQL masters: its reports count in failover decisions. */
    public void checksMysql() {
        publish(new View(mine.instance(), mine.topologyVersion(), true, mine.mysqlUnreachable()));
    }

    /** Publishes the MySQL hosts whose master this instance cannot reach (only when that changed). */
    public void mysqlUnreachable(Set<String> hosts) {
        if (!hosts.equals(mine.mysqlUnreachable())) {
            publish(new View(
                    mine.instance(), mine.topologyVersion(), mine.checksMysql(), Set.copyOf(new TreeSet<>(hosts))));
        }
    }

    /**
     * How many instances of the cluster are live now, this one included (1 until known, and the last count known
     * while ZooKeeper is out of reach). Kept current by a watch, so it costs nothing to ask.
     */
    public int liveInstances() {
        if (counting.compareAndSet(false, true)) {
            count();
        }
        return live;
    }

    private void countLive() {
        try {
            int count = zookeeper.client().getChildren()
                    .usingWatcher((org.apache.zookeeper.Watcher) event -> count()).forPath(PATH).size();
            live = Math.max(1, count);
        } catch (KeeperException.NoNodeException none) {
            live = 1;
            CompletableFuture.delayedExecutor(1, TimeUnit.SECONDS).execute(this::count);
        } catch (Exception e) {
            LOG.debugf("counting the live instances waits for ZooKeeper: %s", e.getMessage());
            CompletableFuture.delayedExecutor(1, TimeUnit.SECONDS).execute(this::count);
        }
    }

    private void count() {
        try {
            counter.execute(this::countLive);
        } catch (java.util.concurrent.RejectedExecutionException closed) {
            // shutting down
        }
    }

    /** Every live instance's report (this one's included once it is published). */
    public Uni<List<View>> all() {
        return zookeeper.call("instance views", this::read);
    }

    private List<View> read() throws Exception {
        List<View> views = new ArrayList<>();
        List<String> children;
        try {
            children = zookeeper.client().getChildren().forPath(PATH);
        } catch (KeeperException.NoNodeException none) {
            return views;
        }
        for (String child : children) {
            try {
                byte[] data = zookeeper.client().getData().forPath(PATH + "/" + child);
                views.add(JSON.readValue(data, View.class));
            } catch (KeeperException.NoNodeException gone) {
                // its session ended meanwhile: not live
            }
        }
        return views;
    }

    /**
     * Waits (at most {@code max}) until every live instance reports topology version {@code version} or later, and
     * names those that did not in time (an instance that stays silent that long is hung or cut off from ZooKeeper,
     * where its session will end).
     */
    public Uni<List<String>> awaitTopology(long version, java.time.Duration max) {
        return zookeeper.call("topology acknowledgements", () -> {
            long deadline = System.nanoTime() + max.toNanos();
            while (true) {
                List<String> behind = new ArrayList<>();
                for (View view : read()) {
                    if (view.topologyVersion() < version) {
                        behind.add(view.instance());
                    }
                }
                if (behind.isEmpty() || System.nanoTime() > deadline) {
                    return behind;
                }
                Thread.sleep(20);
            }
        });
    }

    /** Coalesces: the latest view is written by one task on the views' thread, never on the caller's. */
    private void publish(View view) {
        mine = view;
        liveInstances(); // the count is known before the instance serves (limits share by it)
        if (!zookeeper.member()) {
            return; // a one-command run is no instance of the cluster
        }
        if (scheduled.compareAndSet(false, true)) {
            writer.execute(() -> {
                scheduled.set(false);
                write(mine);
            });
        }
    }

    private synchronized void write(View view) {
        byte[] data;
        try {
            data = JSON.writeValueAsBytes(view);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
        try {
            if (node == null) {
                // kept across sessions: Curator creates it again when a new session begins
                node = new PersistentNode(
                        zookeeper.client(), CreateMode.EPHEMERAL, false, PATH + "/" + view.instance(), data);
                node.start();
                zookeeper.closeFirst(node);
            } else {
                node.setData(data); // blocks until the node exists (at most 15 s): on the views' own thread
            }
        } catch (Exception e) {
            LOG.debugf("publishing this instance's view waits for ZooKeeper: %s", e.getMessage());
        }
    }

    @PreDestroy
    synchronized void close() {
        writer.shutdownNow();
        counter.shutdownNow();
        if (node != null) {
            try {
                node.close();
            } catch (java.io.IOException | RuntimeException e) {
                LOG.debugf("closing this instance's view: %s", e.getMessage());
            }
        }
    }
}
