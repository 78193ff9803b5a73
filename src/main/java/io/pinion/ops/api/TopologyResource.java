package io.pinion.ops.api;

import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import io.pinion.auth.Roles;
import io.pinion.ops.ShardPlacement;
import io.pinion.ops.ShardPlacements;
import io.pinion.topology.ActiveTopology;
import io.pinion.topology.Topology;

/**
 * Read access to the topology in force: the whole document, and where one logical shard lives.
 */
@Path("/v1/admin/topology")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "admin")
@RolesAllowed(Roles.ADMIN)
public class TopologyResource {

    private final ActiveTopology topology;
    private final ShardPlacements placements;

    TopologyResource(ActiveTopology topology, ShardPlacements placements) {
        this.topology = topology;
        this.placements = placements;
    }

    @GET
    @Operation(summary = "The topology in force: MySQL shards per host, Redis virtual shards per instance, HBase clusters by role")
    public Topology topology() {
        return topology.get();
    }

    @POST
    @Path("/reload")
    @Operation(summary = "Read the topology file again and put it in force (e.g. after moving a shard to another host)")
    public Topology reload() {
        return topology.reload();
    }

    @GET
    @Path("/shards/{shard}")
    @Operation(summary = "Which MySQL host serves a logical shard, and whether it takes new objects")
    public ShardPlacement shard(@PathParam("shard") @Min(0) @Max(65535) int shard) {
        return placements.of(shard);
    }
}
