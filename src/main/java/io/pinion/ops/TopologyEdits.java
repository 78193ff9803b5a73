package io.pinion.ops;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.topology.ActiveTopology;
import io.pinion.topology.InvalidTopologyException;
import io.pinion.topology.Topology;
import io.pinion.topology.TopologyLoader;
import io.pinion.zookeeper.TopologyZnode;
import io.smallrye.mutiny.Uni;

/**
 * An operator's view and edits of the topology: what is in force here, what ZooKeeper holds, and a replacement
 * document written as a compare-and-set on the version the operator read.
 */
@ApplicationScoped
public class TopologyEdits {

    private final ActiveTopology topology;
    private final TopologyZnode znode;

    TopologyEdits(ActiveTopology topology, TopologyZnode znode) {
        this.topology = topology;
        this.znode = znode;
    }

    /** The topology in force on this instance and its version. */
    public ActiveTopology.Versioned inForce() {
        return topology.versioned();
    }

    /** The document in ZooKeeper now. */
    public Uni<ActiveTopology.Versioned> stored() {
        return znode.stored();
    }

    /**
     * Replaces the topology with {@code document} (JSON, the topology file's format) if its version is still
     * {@code expectedVersion}.
     *
     * @throws InvalidTopologyException when the document is not a valid topology, or changes the shard counts
     */
    public Uni<ActiveTopology.Versioned> replace(String document, long expectedVersion) {
        Topology next = parse(document);
        return znode.change(expectedVersion, current -> next);
    }

    /** A topology document as the topology file holds it, validated. */
    public static Topology parse(String document) {
        try {
            return TopologyLoader.parse(
                    new ByteArrayInputStream(document.getBytes(StandardCharsets.UTF_8)), "the document");
        } catch (IOException e) {
            throw new InvalidTopologyException(List.of("the document: " + e.getMessage()));
        }
    }
}
