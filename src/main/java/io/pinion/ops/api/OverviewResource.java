package io.pinion.ops.api;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import io.pinion.auth.Roles;
import io.pinion.ops.overview.ClusterOverview;
import io.pinion.ops.overview.ClusterOverviewService;
import io.pinion.ops.overview.Overview;
import io.pinion.ops.overview.OverviewService;
import io.smallrye.mutiny.Uni;

/**
 * {@code GET /v1/admin/overview}: this instance's request rates and latencies per endpoint group, the feed funnel,
 * hedged reads and queue rates, for the dashboard at {@code /admin/}; {@code GET /v1/admin/overview/cluster}: the
 * cluster's, from its Prometheus.
 */
@Path("/v1/admin/overview")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Roles.ADMIN)
@SecurityRequirement(name = "bearer")
@Tag(name = "admin")
public class OverviewResource {

    private final OverviewService overview;
    private final ClusterOverviewService cluster;

    OverviewResource(OverviewService overview, ClusterOverviewService cluster) {
        this.overview = overview;
        this.cluster = cluster;
    }

    @GET
    @Operation(
            operationId = "getOverview",
            summary = "Requests per endpoint group, feed funnel, hedged reads and queue rates of this instance (admin)")
    public Overview overview() {
        return overview.overview();
    }

    @GET
    @Path("/cluster")
    @Operation(
            operationId = "getClusterOverview",
            summary = "Requests per endpoint group and queue figures of the whole cluster, from its Prometheus (admin)",
            description = "configured is false when no Prometheus is set (pinion.prometheus.url); 503 when it does not"
                    + " answer")
    public Uni<ClusterOverview> cluster() {
        return cluster.overview();
    }
}
