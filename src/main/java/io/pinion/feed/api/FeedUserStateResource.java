package io.pinion.feed.api;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import io.pinion.auth.Roles;
import io.pinion.feed.store.FeedUserState;
import io.pinion.feed.store.FeedUserStates;
import io.pinion.id.IdParser;
import io.pinion.id.ObjectType;
import io.smallrye.mutiny.Uni;

/** What the feed keeps for one user: how full the materialized feed and the pools are, the last visit and pull. */
@Path("/v1/admin/feed/users/{id}")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "admin")
@RolesAllowed(Roles.ADMIN)
public class FeedUserStateResource {

    private final FeedUserStates states;
    private final IdParser ids;

    FeedUserStateResource(FeedUserStates states, IdParser ids) {
        this.states = states;
        this.ids = ids;
    }

    @GET
    @Operation(
            operationId = "getFeedUserState",
            summary = "The user's feed: materialized entries, approximate pool rows, last visit and pull, next chunk"
                    + " size")
    public Uni<FeedUserState> state(@PathParam("id") String id) {
        return states.of(ids.parse(id, ObjectType.USER, "id").value());
    }
}
