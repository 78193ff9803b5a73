package io.pinion.zookeeper;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.UnaryOperator;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.apache.curator.framework.api.CuratorWatcher;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.jboss.logging.Logger;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.pinion.failure.Conflict;
import io.pinion.topology.ActiveTopology;
import io.pinion.topology.InvalidTopologyException;
import io.pinion.topology.Topology;
import io.pinion.topology.TopologyConfig;
import io.pinion.topology.TopologyLoader;
import io.pinion.topology.TopologyValidator;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;

/**
 * The topology document in ZooKeeper ({@code <root>/topology}), the one every instance follows. On its first
 * connection an instance seeds it with its own seed when there is none, then reads it with a watch, re-armed on
 * every read, and after each reconnection: a change made anywhere is in force everywhere within milliseconds.
 * Every change is a compare-and-set on the znode's version ({@link #change}): of two concurrent edits one wins and
 * the other gets a 409. The version in force is copied to the topology file when one is configured.
 */
@ApplicationScoped
public class TopologyZnode {

    static final String PATH = "/topology";

    private static final Logger LOG = Logger.getLogger(TopologyZnode.class);

    private final Zookeeper zookeeper;
    private final ActiveTopology topology;
    private final TopologyConfig config;
    private final ClusterViews views;
    private final AtomicBoolean reading = new AtomicBoolean();
    private final AtomicBoolean readAgain = new AtomicBoolean();

    TopologyZnode(Zookeeper zookeeper, ActiveTopology topology, TopologyConfig config, ClusterViews views,
            MeterRegistry registry) {
        this.zookeeper = zookeeper;
        this.views = views;
        this.topology = topology;
        this.config = config;
        Gauge.builder("pinion.topology.version", topology, active -> active.versioned().version())
                .description("The version of the topology in force (the ZooKeeper znode's; -1: the seed, never read)")
                .register(registry);
    }

    /**
     * Before anything else starts (schema migrations, brokers), waits up to the connection timeout for the ensemble
     * and reads the topology, so that the instance starts on the cluster's topology rather than its seed; without
     * ZooKeeper it starts on the seed and is not ready until it has read it.
     */
    void onStart(@Observes @Priority(1) StartupEvent start) {
        if (zookeeper.awaitConnection()) {
            try {
                readOnce();
            } catch (Exception e) {
                LOG.warnf("reading the topology from ZooKeeper at start failed (retried): %s", e.getMessage());
            }
        } else {
            LOG.warnf("no ZooKeeper session with %s yet: serving nothing until the topology is read from it",
                    zookeeper.describe());
        }
        zookeeper.onConnectionChange(connected -> {
            if (connected) {
                read();
            }
        });
    }

    /** Whether the topology can be changed from here now: the instance has a ZooKeeper session. */
    public boolean writable() {
        return zookeeper.connected();
    }

    /** Whether this instance has read the topology from ZooKeeper at least once. */
    public boolean synced() {
        return topology.versioned().version() != ActiveTopology.SEED;
    }

    /**
     * Edits the topology: reads the current version, applies {@code edit} to it, and writes the result if the version
     * is still the one read (and, when {@code expectedVersion} is not negative, the one the caller saw). The result
     * is in force here when this completes, and on every other instance as soon as its watch fires.
     *
     * @throws Conflict (409 {@code topology_version_conflict}) when someone else changed it first
     */
    public Uni<ActiveTopology.Versioned> change(long expectedVersion, UnaryOperator<Topology> edit) {
        return zookeeper.call("topology change", () -> {
            Stat stat = new Stat();
            byte[] data = zookeeper.client().getData().storingStatIn(stat).forPath(PATH);
            if (expectedVersion >= 0 && stat.getVersion() != expectedVersion) {
                throw conflict(expectedVersion, stat.getVersion());
            }
            Topology current = parse(data);
            Topology next = edit.apply(current);
            TopologyValidator.validate(next);
            List<String> problems = ActiveTopology.incompatibilities(current, next);
            if (!problems.isEmpty()) {
                throw new InvalidTopologyException(problems);
            }
            Stat written;
            try {
                written = zookeeper.client().setData().withVersion(stat.getVersion())
                        .forPath(PATH, TopologyLoader.toJson(next).getBytes(StandardCharsets.UTF_8));
            } catch (KeeperException.BadVersionException e) {
                throw conflict(stat.getVersion(), -1);
            }
            put(next, written.getVersion());
            return new ActiveTopology.Versioned(next, written.getVersion());
        });
    }

    /** The document in ZooKeeper now, with its version (not what is in force here: for operators comparing). */
    public Uni<ActiveTopology.Versioned> stored() {
        return zookeeper.call("topology read", () -> {
            Stat stat = new Stat();
            byte[] data = zookeeper.client().getData().storingStatIn(stat).forPath(PATH);
            return new ActiveTopology.Versioned(parse(data), stat.getVersion());
        });
    }

    /** Reads the document with a watch (one read at a time; a change during a read reads again). */
    private void read() {
        readAgain.set(true);
        if (!reading.compareAndSet(false, true)) {
            return;
        }
        zookeeper.call("topology watch", this::readOnce).subscribe().with(more -> {
            reading.set(false);
            if (readAgain.get()) {
                read();
            }
        }, failure -> {
            reading.set(false);
            if (zookeeper.closed()) {
                return; // the instance is stopping
            }
            LOG.warnf("reading the topology from ZooKeeper failed (the one in force stays): %s", failure.getMessage());
        });
    }

    private boolean readOnce() throws Exception {
        readAgain.set(false);
        if (zookeeper.client().checkExists().forPath(PATH) == null) {
            seed();
        }
        Stat stat = new Stat();
        CuratorWatcher watcher = event -> read();
        byte[] data = zookeeper.client().getData().storingStatIn(stat).usingWatcher(watcher).forPath(PATH);
        try {
            put(parse(data), stat.getVersion());
        } catch (InvalidTopologyException e) {
            LOG.errorf("the topology in ZooKeeper (version %d) was not applied: %s", stat.getVersion(), e.getMessage());
        }
        return true;
    }

    private void seed() throws Exception {
        Topology seed = topology.seed();
        try {
            zookeeper.client().create().creatingParentContainersIfNeeded()
                    .forPath(PATH, TopologyLoader.toJson(seed).getBytes(StandardCharsets.UTF_8));
            LOG.infof("seeded the topology in ZooKeeper %s from %s", zookeeper.describe(),
                    config.file().orElse("classpath:" + config.resource()));
        } catch (KeeperException.NodeExistsException another) {
            // another instance seeded it first
        }
    }

    private void put(Topology next, int version) {
        if (topology.apply(next, version)) {
            views.topologyApplied(version);
            mirror(next);
        }
    }

    /** Copies the version in force to the topology file, when there is one, it differs and it may be written. */
    private void mirror(Topology next) {
        config.file().ifPresent(file -> {
            Path path = Path.of(file).toAbsolutePath();
            String json = TopologyLoader.toJson(next);
            try {
                if (Files.exists(path) && (!Files.isWritable(path) || Files.readString(path).equals(json))) {
                    return; // unchanged, or read-only (a container's mounted seed)
                }
                Path written = Files.createTempFile(path.getParent(), ".topology", ".json");
                Files.writeString(written, json);
                Files.move(written, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException e) {
                LOG.warnf("could not copy the topology to %s: %s", path, e.getMessage());
            }
        });
    }

    private static Topology parse(byte[] data) throws IOException {
        return TopologyLoader.parse(new ByteArrayInputStream(data), "zookeeper:" + PATH);
    }

    private static Conflict conflict(long expected, int actual) {
        return new Conflict(
                "topology_version_conflict",
                actual < 0
                        ? "the topology changed while this change was made (version " + expected
                                + " is no longer current); read it again and retry"
                        : "the topology is at version " + actual + ", not " + expected + "; read it again and retry");
    }
}
