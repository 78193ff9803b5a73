package io.pinion.pins.api;

import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.ResponseStatus;

import io.pinion.auth.CurrentUser;
import io.pinion.failure.InvalidInput;
import io.pinion.id.IdParser;
import io.pinion.id.ObjectType;
import io.pinion.id.PinionId;
import io.pinion.paging.Limits;
import io.pinion.paging.Page;
import io.pinion.pins.BoardPinOrder;
import io.pinion.pins.MovePinRequest;
import io.pinion.pins.PinLists;
import io.pinion.pins.PinView;
import io.pinion.users.UserView;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;

/**
 * Paged lists of pins and likers, and the custom order of a board. Lists take {@code limit} (default 25, at
 * most 100) and the {@code cursor} of the previous page.
 */
@Path("/v1")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "pins")
public class PinListResource {

    private final PinLists lists;
    private final BoardPinOrder order;
    private final IdParser ids;
    private final CurrentUser currentUser;

    PinListResource(PinLists lists, BoardPinOrder order, IdParser ids, CurrentUser currentUser) {
        this.lists = lists;
        this.order = order;
        this.ids = ids;
        this.currentUser = currentUser;
    }

    @GET
    @Path("/boards/{id}/pins")
    @Operation(operationId = "listBoardPins", summary = "A board's pins: newest first, or the owner's custom order")
    public Uni<Page<PinView>> boardPins(@PathParam("id") String id, @QueryParam("limit") String limit,
            @QueryParam("cursor") String cursor) {
        return lists.boardPins(ids.parse(id, ObjectType.BOARD, "board id"), cursor, Limits.LIST.of(limit));
    }

    @PUT
    @Path("/boards/{id}/pins/{pinId}/position")
    @Authenticated
    @ResponseStatus(204)
    @Operation(operationId = "movePin",
            summary = "Move a pin of your board just before (above) or after (below) another pin of it")
    public Uni<Void> move(
            @PathParam("id") String id, @PathParam("pinId") String pinId, @NotNull MovePinRequest request) {
        if ((request.before() == null) == (request.after() == null)) {
            throw new InvalidInput("invalid_move", "give exactly one of 'before' or 'after'");
        }
        boolean before = request.before() != null;
        PinionId anchor =
                ids.parse(before ? request.before() : request.after(), ObjectType.PIN, before ? "before" : "after");
        return order.move(currentUser.id(), ids.parse(id, ObjectType.BOARD, "board id"),
                ids.parse(pinId, ObjectType.PIN, "pin id"), anchor, before);
    }

    @GET
    @Path("/users/{id}/pins")
    @Operation(operationId = "listUserPins", summary = "A user's pins, newest first")
    public Uni<Page<PinView>> userPins(@PathParam("id") String id, @QueryParam("limit") String limit,
            @QueryParam("cursor") String cursor) {
        return lists.userPins(user(id), cursor, Limits.LIST.of(limit));
    }

    @GET
    @Path("/users/{id}/likes")
    @Operation(operationId = "listUserLikes", summary = "The pins a user liked, most recent like first")
    public Uni<Page<PinView>> userLikes(@PathParam("id") String id, @QueryParam("limit") String limit,
            @QueryParam("cursor") String cursor) {
        return lists.userLikes(user(id), cursor, Limits.LIST.of(limit));
    }

    @GET
    @Path("/pins/{id}/likers")
    @Operation(operationId = "listPinLikers", summary = "The users who liked a pin, most recent first")
    public Uni<Page<UserView>> likers(@PathParam("id") String id, @QueryParam("limit") String limit,
            @QueryParam("cursor") String cursor) {
        return lists.likers(ids.parse(id, ObjectType.PIN, "pin id"), cursor, Limits.LIST.of(limit));
    }

    private PinionId user(String id) {
        return ids.parse(id, ObjectType.USER, "user id");
    }
}
