package io.pinion.health;

import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

import io.pinion.topology.ActiveTopology;
import io.quarkus.runtime.StartupEvent;

/**
 * Readiness means "this instance can serve": UP once start-up is done with a valid topology in force, whatever the
 * state of single backends (a backend that is down costs only the requests that need it a fast 503; the
 * {@code backends} health group shows which).
 */
@Readiness
@ApplicationScoped
public class ServingReadiness implements HealthCheck {

    private final ActiveTopology topology;
    private final AtomicBoolean started = new AtomicBoolean();

    ServingReadiness(ActiveTopology topology) {
        this.topology = topology;
    }

    void onStart(@Observes StartupEvent start) {
        started.set(true);
    }

    @Override
    public HealthCheckResponse call() {
        boolean topologyInForce;
        try {
            topologyInForce = topology.get() != null;
        } catch (RuntimeException e) {
            topologyInForce = false;
        }
        return HealthCheckResponse.named("pinion")
                .status(started.get() && topologyInForce)
                .withData("started", started.get())
                .withData("topology", topologyInForce)
                .build();
    }
}
