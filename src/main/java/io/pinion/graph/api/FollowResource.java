package io.pinion.graph.api;

import java.util.ArrayList;
import java.util.List;

import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import io.pinion.auth.CurrentUser;
import io.pinion.graph.FollowQueries;
import io.pinion.graph.FollowWrites;
import io.pinion.id.IdParser;
import io.pinion.id.ObjectType;
import io.pinion.id.PinionId;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;

/**
 * The signed-in user's follows: follow and unfollow users, boards and interests (idempotent), and "which of these
 * do I follow".
 */
@Path("/v1")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "follows")
@Authenticated
@SecurityRequirement(name = "bearer")
public class FollowResource {

    private final FollowWrites writes;
    private final FollowQueries queries;
    private final IdParser ids;
    private final CurrentUser currentUser;

    FollowResource(FollowWrites writes, FollowQueries queries, IdParser ids, CurrentUser currentUser) {
        this.writes = writes;
        this.queries = queries;
        this.ids = ids;
        this.currentUser = currentUser;
    }

    @PUT
    @Path("/me/following/users/{id}")
    @Operation(operationId = "followUser", summary = "Follow a user: all of their boards, present and future")
    public Uni<FollowState> followUser(@PathParam("id") String id) {
        return writes.followUser(currentUser.id(), user(id)).map(changed -> new FollowState(true, changed));
    }

    @DELETE
    @Path("/me/following/users/{id}")
    @Operation(operationId = "unfollowUser",
            summary = "Unfollow a user entirely (their board unfollows are cleared too)")
    public Uni<FollowState> unfollowUser(@PathParam("id") String id) {
        return writes.unfollowUser(currentUser.id(), user(id)).map(changed -> new FollowState(false, changed));
    }

    @PUT
    @Path("/me/following/boards/{id}")
    @Operation(operationId = "followBoard",
            summary = "Follow one board (of a followed user: undo its unfollow; else: implicitly follow the owner)")
    public Uni<FollowState> followBoard(@PathParam("id") String id) {
        return writes.followBoard(currentUser.id(), board(id)).map(changed -> new FollowState(true, changed));
    }

    @DELETE
    @Path("/me/following/boards/{id}")
    @Operation(operationId = "unfollowBoard",
            summary = "Unfollow one board (of a followed user: kept as an explicit unfollow)")
    public Uni<FollowState> unfollowBoard(@PathParam("id") String id) {
        return writes.unfollowBoard(currentUser.id(), board(id)).map(changed -> new FollowState(false, changed));
    }

    @PUT
    @Path("/me/following/interests/{name}")
    @Operation(operationId = "followInterest", summary = "Follow an interest (a topic name; normalized to lower case)")
    public Uni<FollowState> followInterest(@PathParam("name") String name) {
        return writes.followInterest(currentUser.id(), Interests.normalize(name))
                .map(changed -> new FollowState(true, changed));
    }

    @DELETE
    @Path("/me/following/interests/{name}")
    @Operation(operationId = "unfollowInterest", summary = "Unfollow an interest")
    public Uni<FollowState> unfollowInterest(@PathParam("name") String name) {
        return writes.unfollowInterest(currentUser.id(), Interests.normalize(name))
                .map(changed -> new FollowState(false, changed));
    }

    @GET
    @Path("/me/following/users")
    @Operation(operationId = "followedUsers",
            summary = "Which of these users (ids=, up to 100) I follow explicitly; one Redis round trip")
    public Uni<FollowedIds> whichUsers(@QueryParam("ids") String list) {
        List<PinionId> users = IdList.parse(ids, list, ObjectType.USER);
        return queries.followsUsers(currentUser.id().value(), users).map(answers -> followed(users, answers));
    }

    @GET
    @Path("/me/following/boards")
    @Operation(operationId = "followedBoards",
            summary = "Which of these boards (ids=, up to 100) I follow, explicitly or through their owners")
    public Uni<FollowedIds> whichBoards(@QueryParam("ids") String list) {
        List<PinionId> boards = IdList.parse(ids, list, ObjectType.BOARD);
        return queries.followsBoards(currentUser.id().value(), boards).map(answers -> followed(boards, answers));
    }

    private static FollowedIds followed(List<PinionId> asked, List<Boolean> answers) {
        List<String> following = new ArrayList<>();
        for (int i = 0; i < asked.size(); i++) {
            if (answers.get(i)) {
                following.add(asked.get(i).toString());
            }
        }
        return new FollowedIds(following);
    }

    private PinionId user(String id) {
        return ids.parse(id, ObjectType.USER, "user id");
    }

    private PinionId board(String id) {
        return ids.parse(id, ObjectType.BOARD, "board id");
    }
}
