package io.pinion.graph.api;

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
import io.pinion.graph.repair.FailoverResync;
import io.pinion.graph.GraphConfig;
import io.smallrye.mutiny.Uni;

/**
 * Syncs again, from the follower's side, every relationship journaled lately: what runs by itself after a Redis
 * failover, for an operator after a restore (the two instances' snapshots are not taken at the same moment) or any
 * time both sides are in doubt.
 */
@Path("/v1/admin/graph/resync")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "admin")
@RolesAllowed(Roles.ADMIN)
public class GraphResyncResource {

    private final FailoverResync resync;
    private final GraphConfig config;

    GraphResyncResource(FailoverResync resync, GraphConfig config) {
        this.resync = resync;
        this.config = config;
    }

    /** The longest span asked for: the journals hold at most a window before each shard's last write anyway. */
    static final long MAX_SECONDS = 30L * 24 * 3600;

    @POST
    @Operation(operationId = "resyncGraph",
            summary = "Sync again every relationship journaled in the last `seconds` (default: the journal window; "
                    + "after a restore, the time since the backup plus the window)")
    public Uni<FailoverResync.Result> resync(@QueryParam("seconds") Long seconds) {
        long span = seconds == null ? config.journalWindow().toSeconds() : seconds;
        if (span < 1 || span > MAX_SECONDS) {
            throw new InvalidInput("invalid_seconds", "seconds must be within 1.." + MAX_SECONDS);
        }
        return resync.resyncSince((System.currentTimeMillis() - span * 1000) * 1000);
    }
}
