package io.pinion.topology;

import java.util.ArrayList;
import java.util.List;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;

import org.jboss.logging.Logger;

/**
 * The topology in force on this instance. It starts as the seed, the configured file (or the bundled default), and
 * follows the versioned document in ZooKeeper from then on ({@link #apply}): every instance watches it, so a change
 * made anywhere takes effect everywhere on the next request. Callers always read the current value.
 */
@ApplicationScoped
public class ActiveTopology {

    /** The version of a topology not (yet) read from ZooKeeper: the seed. */
    public static final long SEED = -1;

    private static final Logger LOG = Logger.getLogger(ActiveTopology.class);

    private final TopologyConfig config;
    private final Event<TopologyChanged> changed;
    private volatile Versioned current;

    /** A topology and its version in ZooKeeper (the znode's version; {@link #SEED} before the first read). */
    public record Versioned(Topology topology, long version) {
    }

    ActiveTopology(TopologyConfig config, Event<TopologyChanged> changed) {
        this.config = config;
        this.changed = changed;
    }

    @PostConstruct
    void load() {
        current = new Versioned(seed(), SEED);
        log("topology seed", current);
    }

    public Topology get() {
        return current.topology();
    }

    /** The topology in force with its version. */
    public Versioned versioned() {
        return current;
    }

    /** The document this instance started from: the configured file, else the bundled default. */
    public Topology seed() {
        return config.file().map(file -> TopologyLoader.fromFile(java.nio.file.Path.of(file)))
                .orElseGet(() -> TopologyLoader.fromResource(config.resource()));
    }

    /**
     * Puts a version read from ZooKeeper in force, unless this instance already has it or a later one. Observers of
     * {@link TopologyChanged} run before it returns when the document changed.
     *
     * @return whether it took effect
     * @throws InvalidTopologyException when it changes what cannot change at run time (nothing changes then)
     */
    public synchronized boolean apply(Topology next, long version) {
        Versioned previous = current;
        if (previous.version() != SEED && version <= previous.version()) {
            return false;
        }
        List<String> problems = incompatibilities(previous.topology(), next);
        if (!problems.isEmpty()) {
            throw new InvalidTopologyException(problems);
        }
        current = new Versioned(next, version);
        if (!next.equals(previous.topology())) {
            changed.fire(new TopologyChanged(previous.topology(), next));
            log("topology changed", current);
        }
        return true;
    }

    /** What {@code next} changes that is part of every id and key: the shard and virtual-shard counts. */
    public static List<String> incompatibilities(Topology previous, Topology next) {
        List<String> problems = new ArrayList<>();
        if (next.mysql().shardCount() != previous.mysql().shardCount()) {
            problems.add("mysql.shardCount cannot change at run time (" + previous.mysql().shardCount() + ")");
        }
        if (next.redis().virtualShards() != previous.redis().virtualShards()) {
            problems.add("redis.virtualShards cannot change at run time (" + previous.redis().virtualShards() + ")");
        }
        return problems;
    }

    private void log(String what, Versioned versioned) {
        Topology topology = versioned.topology();
        LOG.infof(
                "%s (version %d): %d shards on %d MySQL hosts, %d virtual shards on %d Redis instances, %d HBase"
                        + " clusters",
                what,
                versioned.version(),
                topology.mysql().shardCount(),
                topology.mysql().hosts().size(),
                topology.redis().virtualShards(),
                topology.redis().instances().size(),
                topology.hbase().clusters().size());
    }
}
