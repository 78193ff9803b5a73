package io.pinion.ops.api;

import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.EntityTag;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import io.pinion.auth.Roles;
import io.pinion.ops.ShardPlacement;
import io.pinion.failure.InvalidInput;
import io.pinion.ops.ShardPlacements;
import io.pinion.ops.TopologyEdits;
import io.pinion.topology.ActiveTopology;
import io.smallrye.mutiny.Uni;

/**
 * The topology: the document in force (its ZooKeeper version as ETag), a replacement as a compare-and-set on that
 * version, and where one logical shard lives.
 */
@Path("/v1/admin/topology")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "admin")
@RolesAllowed(Roles.ADMIN)
public class TopologyResource {

    private final TopologyEdits edits;
    private final ShardPlacements placements;

    TopologyResource(TopologyEdits edits, ShardPlacements placements) {
        this.edits = edits;
        this.placements = placements;
    }

    @GET
    @Operation(
            operationId = "getTopology",
            summary =
                    "The topology in force on this instance: MySQL shards per host, Redis virtual shards per instance, "
                            + "HBase clusters by role; its version in ZooKeeper is the ETag")
    public Response topology() {
        ActiveTopology.Versioned current = edits.inForce();
        return Response.ok(current.topology()).tag(etag(current.version())).build();
    }

    @PUT
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(
            operationId = "replaceTopology",
            summary = "Replace the topology (the topology file's format) if its version is still the one in If-Match "
                    + "(the ETag of GET): every instance puts it in force within a second; 409 when it changed since")
    public Uni<Response> replace(@HeaderParam("If-Match") String ifMatch, String document) {
        long expected = version(ifMatch);
        return edits.replace(document, expected)
                .map(done ->
                        Response.ok(done.topology()).tag(etag(done.version())).build());
    }

    @GET
    @Path("/stored")
    @Operation(operationId = "getStoredTopology",
            summary = "The topology document in ZooKeeper now, with its version as ETag (the one in force here may "
                    + "trail it for a moment)")
    public Uni<Response> stored() {
        return edits.stored().map(stored -> Response.ok(stored.topology()).tag(etag(stored.version())).build());
    }

    @GET
    @Path("/shards/{shard}")
    @Operation(operationId = "getShardPlacement",
            summary = "Which MySQL host serves a logical shard, and whether it takes new objects")
    public ShardPlacement shard(@PathParam("shard") @Min(0) @Max(65535) int shard) {
        return placements.of(shard);
    }

    private static EntityTag etag(long version) {
        return new EntityTag(Long.toString(version));
    }

    /**
     * The version named by an If-Match header ({@code "12"} or {@code 12}); required, as every edit is a
     * compare-and-set.
     */
    private static long version(String ifMatch) {
        String value = ifMatch == null ? "" : ifMatch.trim().replaceFirst("^W/", "").replace("\"", "");
        if (!value.matches("\\d{1,18}")) {
            throw new InvalidInput("if_match_required",
                    "send If-Match with the topology version to replace (the ETag of GET /v1/admin/topology)");
        }
        return Long.parseLong(value);
    }
}
