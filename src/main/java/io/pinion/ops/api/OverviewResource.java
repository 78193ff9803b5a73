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
import io.pinion.ops.Overview;
import io.pinion.ops.OverviewService;

/**
 * {@code GET /v1/admin/overview}: this instance's request rates and latencies per endpoint group, the feed funnel,
 * hedged reads and queue rates, for the dashboard at {@code /admin/}.
 */
@Path("/v1/admin/overview")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Roles.ADMIN)
@SecurityRequirement(name = "bearer")
@Tag(name = "admin")
public class OverviewResource {

    private final OverviewService overview;

    OverviewResource(OverviewService overview) {
        this.overview = overview;
    }

    @GET
    @Operation(summary = "Requests per endpoint group, feed funnel, hedged reads and queue rates of this instance (admin)")
    public Overview overview() {
        return overview.overview();
    }
}
