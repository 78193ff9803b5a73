package io.pinion.health;

import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

import io.pinion.topology.ActiveTopology;
import io.pinion.zookeeper.Zookeeper;
import io.quarkus.runtime.StartupEvent;

/**
 * Readiness means "this instance can serve": UP once start-up is done and the cluster's topology has been read from
 * ZooKeeper (an instance on its seed alone could write to a master the cluster has left), whatever the state of
 * single backends and of ZooKeeper afterwards (through an outage of the ensemble it serves on the topology it has) (a
 * backend that is down costs only the requests that need it a fast 503; the {@code backends} health group shows which).
 */
@Readiness
@ApplicationScoped
public class ServingReadiness implements HealthCheck {

    private final ActiveTopology topology;
    private final Zookeeper zookeeper;
    private final AtomicBoolean started = new AtomicBoolean();

    ServingReadiness(ActiveTopology topology, Zookeeper zookeeper) {
        this.topology = topology;
        this.zookeeper = zookeeper;
    }

    void onStart(@Observes StartupEvent start) {
        started.set(true);
    }

    @Override
    public HealthCheckResponse call() {
        long version = topology.versioned().version();
        boolean read = version != ActiveTopology.SEED;
        return HealthCheckResponse.named("pinion")
                .status(started.get() && read)
                .withData("started", started.get())
                .withData("topologyVersion", version)
                .withData("zookeeper", zookeeper.connected() ? "connected" : "not connected")
                .build();
    }
}
