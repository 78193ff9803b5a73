package io.pinion.topology;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

/**
 * Reads and validates a topology document.
 */
public final class TopologyLoader {

    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            // one document, one text: the copy in the topology file is compared with what ZooKeeper holds
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);

    private TopologyLoader() {
    }

    public static Topology fromFile(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            return parse(in, file.toString());
        } catch (IOException e) {
            throw new InvalidTopologyException(List.of("cannot read " + file + ": " + e.getMessage()));
        }
    }

    public static Topology fromResource(String resource) {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        try (InputStream in = loader.getResourceAsStream(resource)) {
            if (in == null) {
                throw new InvalidTopologyException(List.of("no class-path resource " + resource));
            }
            return parse(in, resource);
        } catch (IOException e) {
            throw new InvalidTopologyException(List.of("cannot read " + resource + ": " + e.getMessage()));
        }
    }

    /** The document of a topology, as {@link #parse} reads it back. */
    public static String toJson(Topology topology) {
        try {
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(topology) + "\n";
        } catch (IOException e) {
            throw new IllegalStateException("cannot write the topology: " + e.getMessage(), e);
        }
    }

    public static Topology parse(InputStream in, String source) throws IOException {
        Topology topology;
        try {
            topology = JSON.readValue(in, Topology.class);
        } catch (IOException | IllegalArgumentException e) {
            throw new InvalidTopologyException(List.of(source + ": " + e.getMessage()));
        }
        TopologyValidator.validate(topology);
        return topology;
    }
}
