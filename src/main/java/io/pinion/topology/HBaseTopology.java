package io.pinion.topology;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The HBase clusters and which cluster plays each {@link HBaseRole}.
 */
public record HBaseTopology(List<HBaseClusterSpec> clusters, Map<HBaseRole, String> roles) {

    public HBaseTopology {
        clusters = clusters == null ? List.of() : List.copyOf(clusters);
        roles = roles == null ? Map.of() : Map.copyOf(roles);
    }

    public Optional<HBaseClusterSpec> cluster(String name) {
        return clusters.stream().filter(cluster -> cluster.name().equals(name)).findFirst();
    }

    public Optional<HBaseClusterSpec> clusterFor(HBaseRole role) {
        return Optional.ofNullable(roles.get(role)).flatMap(this::cluster);
    }
}
