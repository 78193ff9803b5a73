package io.pinion.feed.api;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import io.pinion.auth.CurrentUser;
import io.pinion.feed.funnel.FunnelRange;
import io.pinion.feed.funnel.PinReach;
import io.pinion.feed.funnel.PinReaches;
import io.pinion.id.IdParser;
import io.pinion.id.ObjectType;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;

/** A pin's reach, for its author only: the followers it was routed to, the feeds it entered, how often it was shown. */
@Path("/v1")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "pins")
public class PinReachResource {

    private final PinReaches reaches;
    private final IdParser ids;
    private final CurrentUser currentUser;

    PinReachResource(PinReaches reaches, IdParser ids, CurrentUser currentUser) {
        this.reaches = reaches;
        this.ids = ids;
        this.currentUser = currentUser;
    }

    @GET
    @Path("/me/pins/{id}/reach")
    @Authenticated
    @Operation(
            operationId = "getPinReach",
            summary = "Your pin's reach: followers it was routed to, feeds it entered, times considered and shown"
                    + " (author only); from and to are ISO-8601 instants (default the last 7 days), step whole hours"
                    + " (default PT1H)")
    public Uni<PinReach> reach(@PathParam("id") String id, @QueryParam("from") String from,
            @QueryParam("to") String to, @QueryParam("step") String step) {
        FunnelRange range = FunnelRange.parse(from, to, step, PinReaches.SPAN, PinReaches.STEP);
        return reaches.of(currentUser.id(), ids.parse(id, ObjectType.PIN, "pin id"), range);
    }
}
