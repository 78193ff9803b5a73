package io.pinion.graph.api;

import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import io.pinion.auth.Roles;
import io.pinion.failure.InvalidInput;
import io.pinion.graph.admin.MoveReport;
import io.pinion.graph.admin.MoveRequest;
import io.pinion.graph.admin.VirtualShardMover;
import io.pinion.topology.ShardRange;
import io.smallrye.mutiny.Uni;

/**
 * The data steps of moving virtual shards between Redis instances; the procedure around them is in docs/graph.md.
 */
@Path("/v1/admin/graph/virtual-shards")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "admin")
@RolesAllowed(Roles.ADMIN)
public class VirtualShardResource {

    private final VirtualShardMover mover;

    VirtualShardResource(VirtualShardMover mover) {
        this.mover = mover;
    }

    @POST
    @Path("/copy")
    @Operation(operationId = "copyVirtualShards",
            summary = "Copy a frozen range of virtual shards to another Redis instance (step 3 of a move)")
    public Uni<MoveReport> copy(@NotNull @Valid MoveRequest request) {
        return mover.copy(range(request), request.instance());
    }

    @POST
    @Path("/purge")
    @Operation(operationId = "purgeVirtualShards",
            summary = "Delete a moved range's keys from the instance that no longer serves it (step 5 of a move)")
    public Uni<MoveReport> purge(@NotNull @Valid MoveRequest request) {
        return mover.purge(range(request), request.instance());
    }

    private static ShardRange range(MoveRequest request) {
        if (request.to() < request.from()) {
            throw new InvalidInput("invalid_range", "to must not be below from");
        }
        return new ShardRange(request.from(), request.to());
    }
}
