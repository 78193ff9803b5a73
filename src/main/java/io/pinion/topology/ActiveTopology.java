package io.pinion.topology;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;

import org.jboss.logging.Logger;

import io.pinion.failure.Conflict;

/**
 * The topology in force. Loaded at start-up from the configured file (or the bundled default); replaced at run
 * time by {@link #reload()} (admin endpoint, or the file watch when the file changes). Callers always read the
 * current value, so a new topology takes effect on the next request.
 */
@ApplicationScoped
public class ActiveTopology {

    private static final Logger LOG = Logger.getLogger(ActiveTopology.class);

    private final TopologyConfig config;
    private final Event<TopologyChanged> changed;
    private final AtomicReference<Topology> current = new AtomicReference<>();
    private volatile FileTime loadedModified;

    ActiveTopology(TopologyConfig config, Event<TopologyChanged> changed) {
        this.config = config;
        this.changed = changed;
    }

    @PostConstruct
    void load() {
        current.set(read());
        log("topology", current.get());
    }

    public Topology get() {
        return current.get();
    }

    /**
     * Reads the topology file again and puts it in force. The shard and virtual-shard counts are part of every id
     * and key, so a topology that changes them is refused.
     *
     * @throws InvalidTopologyException when the new document is invalid or incompatible (nothing changes then)
     */
    public synchronized Topology reload() {
        if (config.file().isEmpty()) {
            throw new Conflict("no_topology_file", "the topology is the bundled default; set pinion.topology.file to reload one");
        }
        Topology previous = current.get();
        Topology next = read();
        List<String> problems = new ArrayList<>();
        if (next.mysql().shardCount() != previous.mysql().shardCount()) {
            problems.add("mysql.shardCount cannot change at run time (" + previous.mysql().shardCount() + ")");
        }
        if (next.redis().virtualShards() != previous.redis().virtualShards()) {
            problems.add("redis.virtualShards cannot change at run time (" + previous.redis().virtualShards() + ")");
        }
        if (!problems.isEmpty()) {
            throw new InvalidTopologyException(problems);
        }
        current.set(next);
        changed.fire(new TopologyChanged(previous, next));
        log("topology reloaded", next);
        return next;
    }

    /**
     * Writes {@code next} over the topology file (a new file moved into place, so a reader never sees half of it) and
     * puts it in force here; every other instance watching the file takes it within its watch interval. Blocking:
     * call it off the event loop.
     *
     * @throws InvalidTopologyException when {@code next} is invalid or incompatible (nothing changes then)
     */
    public synchronized Topology replace(Topology next) {
        Path file = Path.of(config.file().orElseThrow(() -> new Conflict("no_topology_file",
                "the topology is the bundled default; set pinion.topology.file to change it at run time")));
        TopologyValidator.validate(next);
        try {
            Path written = Files.createTempFile(file.toAbsolutePath().getParent(), ".topology", ".json");
            Files.writeString(written, TopologyLoader.toJson(next));
            Files.move(written, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new IllegalStateException("cannot write the topology file " + file + ": " + e.getMessage(), e);
        }
        return reload();
    }

    /** Reloads when the file changed since it was read; a broken file is logged and the old topology kept. */
    public void reloadIfFileChanged() {
        config.file().ifPresent(file -> {
            FileTime modified = modified(Path.of(file));
            if (modified != null && !modified.equals(loadedModified)) {
                try {
                    reload();
                } catch (RuntimeException e) {
                    loadedModified = modified;
                    LOG.errorf("topology file %s changed but was not applied: %s", file, e.getMessage());
                }
            }
        });
    }

    private Topology read() {
        return config.file()
                .map(file -> {
                    loadedModified = modified(Path.of(file));
                    return TopologyLoader.fromFile(Path.of(file));
                })
                .orElseGet(() -> TopologyLoader.fromResource(config.resource()));
    }

    private static FileTime modified(Path file) {
        try {
            return Files.getLastModifiedTime(file);
        } catch (IOException e) {
            return null;
        }
    }

    private void log(String what, Topology topology) {
        LOG.infof("%s: %d shards on %d MySQL hosts, %d virtual shards on %d Redis instances, %d HBase clusters (from %s)",
                what, topology.mysql().shardCount(), topology.mysql().hosts().size(),
                topology.redis().virtualShards(), topology.redis().instances().size(),
                topology.hbase().clusters().size(), config.file().orElse("classpath:" + config.resource()));
    }
}
