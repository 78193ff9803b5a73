package io.pinion.web;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.infrastructure.Infrastructure;

/**
 * Turns off the wrapping of every Mutiny callback in a context-propagation snapshot, unless
 * {@code pinion.mutiny.propagate-context} is true. The wrapping (Mutiny's only callback decorator here) captures the
 * CDI request context when a pipeline is built and activates it around each callback, which cost 8–11% of the
 * service's CPU on the read paths (JFR). Nothing in the service needs it: resources read the caller
 * ({@code CurrentUser}) before they return their pipeline, and what a request carries across its hops (its id in the
 * logging context, its MySQL statement count) lives in the request's Vert.x context, which needs no propagation.
 * Pipelines built before startup keep their wrapping.
 */
@ApplicationScoped
public class MutinyCallbacks {

    private static final Logger LOG = Logger.getLogger(MutinyCallbacks.class);

    void unwrap(@Observes @Priority(1) StartupEvent start,
            @ConfigProperty(name = "pinion.mutiny.propagate-context", defaultValue = "false") boolean propagate) {
        if (!propagate) {
            Infrastructure.clearInterceptors();
            LOG.debug("Mutiny callbacks run without context-propagation snapshots");
        }
    }
}
