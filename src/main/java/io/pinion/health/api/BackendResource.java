package io.pinion.health.api;

import java.util.List;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import io.pinion.auth.Roles;
import io.pinion.health.BackendProbes;
import io.pinion.paging.Page;
import io.smallrye.mutiny.Uni;

/**
 * {@code GET /v1/admin/backends}: every backend of the topology probed now, with what only operators should see —
 * its endpoint and what it answered (server version, live region servers) or why it is down.
 */
@Path("/v1/admin/backends")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Roles.ADMIN)
@SecurityRequirement(name = "bearer")
@Tag(name = "admin")
public class BackendResource {

    /** One backend's probe. */
    public record BackendView(String name, String kind, String endpoint, boolean up, long latencyMs, String detail) {
    }

    private final BackendProbes probes;

    BackendResource(BackendProbes probes) {
        this.probes = probes;
    }

    @GET
    @Operation(operationId = "listBackends",
            summary = "Every backend probed now: state, endpoint, latency and detail (admin)")
    public Uni<Page<BackendView>> backends() {
        List<Uni<BackendView>> runs = probes.all().stream()
                .map(probe -> probes.run(probe)
                        .map(result -> new BackendView(
                                probe.name(),
                                probe.kind(),
                                probe.endpoint(),
                                result.up(),
                                result.latencyMs(),
                                result.detail())))
                .toList();
        return Uni.join().all(runs).andFailFast().map(views -> new Page<>(views, null));
    }
}
