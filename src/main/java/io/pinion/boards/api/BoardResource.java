package io.pinion.boards.api;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponseSchema;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.ResponseStatus;

import io.pinion.auth.CurrentUser;
import io.pinion.boards.BoardService;
import io.pinion.boards.BoardView;
import io.pinion.boards.CreateBoardRequest;
import io.pinion.boards.UpdateBoardRequest;
import io.pinion.failure.NotFound;
import io.pinion.failure.Outages;
import io.pinion.graph.FollowQueries;
import io.pinion.id.IdParser;
import io.pinion.id.ObjectType;
import io.pinion.id.PinionId;
import io.pinion.paging.Limits;
import io.pinion.paging.Page;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;

/**
 * Boards: create, read, rename, delete, and a user's boards.
 */
@Path("/v1")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "boards")
public class BoardResource {

    private final BoardService boards;
    private final IdParser ids;
    private final CurrentUser currentUser;
    private final FollowQueries follows;

    BoardResource(BoardService boards, IdParser ids, CurrentUser currentUser, FollowQueries follows) {
        this.boards = boards;
        this.ids = ids;
        this.currentUser = currentUser;
        this.follows = follows;
    }

    @POST
    @Path("/boards")
    @Authenticated
    @ResponseStatus(201)
    @APIResponseSchema(value = BoardView.class, responseCode = "201", responseDescription = "Created")
    @Operation(operationId = "createBoard", summary = "Create a board (on the owner's shard)")
    public Uni<BoardView> create(@NotNull @Valid CreateBoardRequest request) {
        return boards.create(currentUser.id(), request);
    }

    @GET
    @Path("/boards/{id}")
    @Operation(operationId = "getBoard", summary = "A board with its pin and follower counts")
    public Uni<BoardView> get(@PathParam("id") String id) {
        PinionId boardId = ids.parse(id, ObjectType.BOARD, "board id");
        return boards.get(boardId)
                .onItem().ifNull().failWith(() -> new NotFound("board_not_found", "no board " + boardId))
                .chain(board -> follows.boardFollowers(boardId.value(), PinionId.parse(board.ownerId()).value())
                        .map(board::withFollowers)
                        .onFailure(Outages::isUnavailable).recoverWithItem(board));
    }

    @PATCH
    @Path("/boards/{id}")
    @Authenticated
    @Operation(operationId = "updateBoard", summary = "Rename a board or change its description (owner only)")
    public Uni<BoardView> update(@PathParam("id") String id, @NotNull @Valid UpdateBoardRequest request) {
        return boards.update(currentUser.id(), ids.parse(id, ObjectType.BOARD, "board id"), request);
    }

    @GET
    @Path("/users/{id}/boards")
    @Operation(operationId = "listUserBoards", summary = "A user's boards, newest first")
    public Uni<Page<BoardView>> listForUser(@PathParam("id") String id, @QueryParam("limit") String limit,
            @QueryParam("cursor") String cursor) {
        return boards.listForUser(ids.parse(id, ObjectType.USER, "user id"), cursor, Limits.LIST.of(limit));
    }
}
