package io.pinion.health;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.health.HealthCheckResponse;

import io.pinion.topology.TopologyChanged;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.health.api.HealthRegistry;
import io.smallrye.health.registry.HealthRegistries;
import io.smallrye.mutiny.Uni;

/**
 * One check per backend, named after it ({@code mysql-1}, {@code redis-2}, {@code hbase-standby}…), in the health
 * group {@code backends}, served on the management interface only ({@code :9000/q/health/group/backends},
 * {@link ManagementRoutes}): which backend is down, for monitoring. It answers from probe results at most
 * {@code pinion.health.probe-reuse} old, so however often it is asked, each backend is probed at most once per that
 * time. Readiness does
 * not include them ({@link ServingReadiness}): a backend down makes the requests that need it answer 503 while the
 * rest are served, so taking the instance out of a load balancer would only make things worse. The public report
 * names the backend and its kind; endpoints and versions are for admins ({@code GET /v1/admin/backends}).
 */
@Singleton
public class BackendReadiness {

    /** The health group of the per-backend checks. */
    public static final String GROUP = "backends";

    private final BackendProbes probes;
    private final HealthRegistry group = HealthRegistries.getHealthGroupRegistry(GROUP);
    private final List<String> registered = new CopyOnWriteArrayList<>();

    BackendReadiness(BackendProbes probes) {
        this.probes = probes;
    }

    void register(@Observes StartupEvent start) {
        registerAll();
    }

    /** Backends may have come or gone: checks are registered again for the new topology. */
    void onTopologyChange(@Observes TopologyChanged change) {
        registered.forEach(group::remove);
        registered.clear();
        registerAll();
    }

    private synchronized void registerAll() {
        for (BackendProbe probe : probes.all()) {
            group.register(probe.name(), () -> check(probe));
            registered.add(probe.name());
        }
    }

    private Uni<HealthCheckResponse> check(BackendProbe probe) {
        return probes.recent(probe)
                .map(result -> HealthCheckResponse.named(probe.name())
                        .status(result.up())
                        .withData("kind", probe.kind())
                        .build());
    }
}
