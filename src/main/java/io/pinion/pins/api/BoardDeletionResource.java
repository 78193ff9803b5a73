package io.pinion.pins.api;

import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.ResponseStatus;

import io.pinion.auth.CurrentUser;
import io.pinion.id.IdParser;
import io.pinion.id.ObjectType;
import io.pinion.pins.BoardPurges;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;

/**
 * Deleting a board, which deletes its pins ({@link BoardPurges}): served with the pins, which depend on boards, so
 * that boards never depend on pins.
 */
@Path("/v1")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "boards")
public class BoardDeletionResource {

    private final BoardPurges purges;
    private final IdParser ids;
    private final CurrentUser currentUser;

    BoardDeletionResource(BoardPurges purges, IdParser ids, CurrentUser currentUser) {
        this.purges = purges;
        this.ids = ids;
        this.currentUser = currentUser;
    }

    @DELETE
    @Path("/boards/{id}")
    @Authenticated
    @ResponseStatus(204)
    @Operation(
            operationId = "deleteBoard",
            summary = "Delete a board and its pins (owner only; soft delete; a large board's pins go within seconds)")
    public Uni<Void> delete(@PathParam("id") String id) {
        return purges.delete(currentUser.id(), ids.parse(id, ObjectType.BOARD, "board id"));
    }
}
