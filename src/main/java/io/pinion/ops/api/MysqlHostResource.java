package io.pinion.ops.api;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import io.pinion.auth.Roles;
import io.pinion.ops.failover.MysqlFailover;
import io.smallrye.mutiny.Uni;

/**
 * Failover of a MySQL host: promote its replica, and point the other server of the pair at the master again.
 */
@Path("/v1/admin/mysql/hosts/{name}")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "admin")
@RolesAllowed(Roles.ADMIN)
public class MysqlHostResource {

    private final MysqlFailover failover;

    MysqlHostResource(MysqlFailover failover) {
        this.failover = failover;
    }

    @POST
    @Path("/promote")
    @Operation(
            operationId = "promoteMysqlHost",
            summary = "Promote the host's replica to master: fence the master, let the replica apply everything the"
                    + " fenced master logged (or, with the master unreachable and force=true, what it received),"
                    + " swap them in the topology, wait until every instance is on it (notAcknowledged names those"
                    + " that were not within 5 s), make it writable")
    public Uni<MysqlFailover.Promotion> promote(@PathParam("name") String name, @QueryParam("force") boolean force) {
        return failover.promote(name, MysqlFailover.Trigger.MANUAL, force);
    }

    @POST
    @Path("/rejoin")
    @Operation(
            operationId = "rejoinMysqlHost",
            summary = "Make the host's replica (e.g. the old master after a promotion) replicate from its master by"
                    + " GTID, read-only, answering once its replication threads run (at most 10 s; running says"
                    + " whether they did); refused (409 diverged) when it holds transactions the master never"
                    + " received")
    public Uni<MysqlFailover.Rejoin> rejoin(@PathParam("name") String name) {
        return failover.rejoin(name);
    }
}
