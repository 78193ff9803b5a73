package io.pinion.health;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

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

    BackendReadiness(BackendProbes probes, @Readiness HealthRegistry readiness) {
        this.probes = probes;
        this.readiness = readiness;
    }

    void register(@Observes StartupEvent start) {
        for (BackendProbe probe : probes.all()) {
            readiness.register(probe.name(), () -> check(probe));
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
