package io.pinion.health;

import java.util.function.Supplier;

import io.smallrye.mutiny.Uni;

/**
 * A cheap round trip to one backend: {@code SELECT 1}, {@code PING}, or a cluster-status call.
 *
 * @param name     backend name from the topology, e.g. {@code redis-2}
 * @param kind     {@code mysql}, {@code redis} or {@code hbase}
 * @param endpoint where it is, for the health report
 * @param call     the round trip; completes with a short detail or fails
 */
public record BackendProbe(String name, String kind, String endpoint, Supplier<Uni<String>> call) {
}
