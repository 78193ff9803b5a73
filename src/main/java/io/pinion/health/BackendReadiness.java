package io.pinion.health;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

import io.pinion.topology.TopologyChanged;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.health.api.HealthRegistry;
import io.smallrye.mutiny.Uni;

/**
 * Registers one readiness check per backend, named after it ({@code mysql-1}, {@code redis-2},
 * {@code hbase-standby}…), so {@code /q/health/ready} names the backend that is down.
 */
@Singleton
public class BackendReadiness {

    private final BackendProbes probes;
    private final HealthRegistry readiness;
    private final List<String> registered = new CopyOnWriteArrayList<>();

    BackendReadiness(BackendProbes probes, @Readiness HealthRegistry readiness) {
        this.probes = probes;
        this.readiness = readiness;
    }

    void register(@Observes StartupEvent start) {
        registerAll();
    }

    /** Backends may have come or gone: checks are registered again for the new topology. */
    void onTopologyChange(@Observes TopologyChanged change) {
        registered.forEach(readiness::remove);
        registered.clear();
        registerAll();
    }

    private synchronized void registerAll() {
        for (BackendProbe probe : probes.all()) {
            readiness.register(probe.name(), () -> check(probe));
            registered.add(probe.name());
        }
    }

    private Uni<HealthCheckResponse> check(BackendProbe probe) {
        return probes.run(probe)
                .map(result -> HealthCheckResponse.named(probe.name())
                        .status(result.up())
                        .withData("kind", probe.kind())
                        .withData("endpoint", probe.endpoint())
                        .withData("latencyMs", result.latencyMs())
                        .withData(result.up() ? "info" : "error", result.detail())
                        .build());
    }
}
