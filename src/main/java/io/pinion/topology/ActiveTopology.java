package io.pinion.topology;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

/**
 * The topology in force. Loaded once at start-up from the configured file (or the bundled default); callers
 * always read the current value, so a replaced topology takes effect on the next request.
 */
@ApplicationScoped
public class ActiveTopology {

    private static final Logger LOG = Logger.getLogger(ActiveTopology.class);

    private final TopologyConfig config;
    private final AtomicReference<Topology> current = new AtomicReference<>();

    ActiveTopology(TopologyConfig config) {
        this.config = config;
    }

    @PostConstruct
    void load() {
        Topology topology = config.file()
                .map(file -> TopologyLoader.fromFile(Path.of(file)))
                .orElseGet(() -> TopologyLoader.fromResource(config.resource()));
        current.set(topology);
        LOG.infof("topology: %d shards on %d MySQL hosts, %d virtual shards on %d Redis instances, %d HBase clusters (from %s)",
                topology.mysql().shardCount(), topology.mysql().hosts().size(),
                topology.redis().virtualShards(), topology.redis().instances().size(),
                topology.hbase().clusters().size(), config.file().orElse("classpath:" + config.resource()));
    }

    public Topology get() {
        return current.get();
    }
}
