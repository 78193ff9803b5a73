package io.pinion.ops.api;

import java.util.Map;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import io.pinion.auth.Roles;
import io.pinion.failure.InvalidInput;
import io.pinion.ops.CacheDrops;
import io.smallrye.mutiny.Uni;

/** Drops every instance's caches through ZooKeeper (after data was changed under them, e.g. restored). */
@Path("/v1/admin/caches")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "admin")
@RolesAllowed(Roles.ADMIN)
public class CacheResource {

    private final CacheDrops drops;

    CacheResource(CacheDrops drops) {
        this.drops = drops;
    }

    @POST
    @Path("/drop")
    @Operation(
            operationId = "dropCaches",
            summary = "Make every instance drop its caches (object cache, known users, board owners); 503 without"
                    + " ZooKeeper")
    public Uni<Map<String, Object>> drop(@QueryParam("reason") String reason) {
        if (reason != null && reason.length() > 200) {
            throw new InvalidInput("reason_too_long", "reason: at most 200 characters");
        }
        return drops.dropAll(reason).map(version -> Map.of("epoch", version));
    }
}
