package io.pinion.pins.api;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponseSchema;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.ResponseStatus;

import io.pinion.auth.CurrentUser;
import io.pinion.failure.NotFound;
import io.pinion.id.IdParser;
import io.pinion.id.ObjectType;
import io.pinion.id.PinionId;
import io.pinion.pins.CreatePinRequest;
import io.pinion.pins.LikeState;
import io.pinion.pins.PinLikes;
import io.pinion.pins.PinService;
import io.pinion.pins.PinView;
import io.pinion.pins.RenderedPin;
import io.pinion.pins.SavePinRequest;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;

/**
 * Pins: create on one of your boards, read, delete, save to another board, like and unlike.
 */
@Path("/v1")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "pins")
public class PinResource {

    private final PinService pins;
    private final PinLikes likes;
    private final IdParser ids;
    private final CurrentUser currentUser;

    PinResource(PinService pins, PinLikes likes, IdParser ids, CurrentUser currentUser) {
        this.pins = pins;
        this.likes = likes;
        this.ids = ids;
        this.currentUser = currentUser;
    }

    @POST
    @Path("/pins")
    @Authenticated
    @ResponseStatus(201)
    @APIResponseSchema(value = PinView.class, responseCode = "201", responseDescription = "Created")
    @Operation(operationId = "createPin", summary = "Create a pin on one of your boards (stored on the board's shard)")
    public Uni<PinView> create(@NotNull @Valid CreatePinRequest request) {
        return pins.create(currentUser.id(), ids.parse(request.boardId(), ObjectType.BOARD, "boardId"), request);
    }

    @GET
    @Path("/pins/{id}")
    @Operation(operationId = "getPin", summary = "A pin with its like and save counts")
    public Uni<RenderedPin> get(@PathParam("id") String id) {
        PinionId pinId = pin(id);
        return pins.rendered(pinId).onItem().ifNull().failWith(() -> new NotFound("pin_not_found", "no pin " + pinId));
    }

    @DELETE
    @Path("/pins/{id}")
    @Authenticated
    @ResponseStatus(204)
    @Operation(operationId = "deletePin", summary = "Delete one of your pins; it disappears from every list")
    public Uni<Void> delete(@PathParam("id") String id) {
        return pins.delete(currentUser.id(), pin(id));
    }

    @POST
    @Path("/pins/{id}/saves")
    @Authenticated
    @ResponseStatus(201)
    @APIResponseSchema(value = PinView.class, responseCode = "201", responseDescription = "Created")
    @Operation(operationId = "savePin",
            summary = "Save a pin to one of your boards: a new pin referencing the original")
    public Uni<PinView> save(@PathParam("id") String id, @NotNull @Valid SavePinRequest request) {
        return pins.save(currentUser.id(), pin(id), ids.parse(request.boardId(), ObjectType.BOARD, "boardId"));
    }

    @PUT
    @Path("/pins/{id}/like")
    @Authenticated
    @Operation(operationId = "likePin", summary = "Like a pin (idempotent)")
    public Uni<LikeState> like(@PathParam("id") String id) {
        return likes.like(currentUser.id(), pin(id));
    }

    @DELETE
    @Path("/pins/{id}/like")
    @Authenticated
    @Operation(operationId = "unlikePin", summary = "Unlike a pin (idempotent)")
    public Uni<LikeState> unlike(@PathParam("id") String id) {
        return likes.unlike(currentUser.id(), pin(id));
    }

    private PinionId pin(String id) {
        return ids.parse(id, ObjectType.PIN, "pin id");
    }
}
