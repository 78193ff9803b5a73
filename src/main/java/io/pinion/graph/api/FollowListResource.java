package io.pinion.graph.api;

import java.time.Instant;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import io.pinion.auth.Roles;
import io.pinion.failure.InvalidInput;
import io.pinion.graph.FollowItem;
import io.pinion.graph.FollowLists;
import io.pinion.graph.FollowQueries;
import io.pinion.graph.FollowQueries.UserFollow;
import io.pinion.graph.GraphTargets;
import io.pinion.graph.UserList;
import io.pinion.id.IdParser;
import io.pinion.id.ObjectType;
import io.pinion.id.PinionId;
import io.pinion.paging.Limits;
import io.pinion.paging.Page;
import io.smallrye.mutiny.Uni;

/**
 * Public reads of the graph: point checks between two users or a user and a board, and paged lists newest first.
 */
@Path("/v1")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "follows")
public class FollowListResource {

    private final FollowQueries queries;
    private final FollowLists lists;
    private final GraphTargets targets;
    private final IdParser ids;

    FollowListResource(FollowQueries queries, FollowLists lists, GraphTargets targets, IdParser ids) {
        this.queries = queries;
        this.lists = lists;
        this.targets = targets;
        this.ids = ids;
    }

    @GET
    @Path("/users/{a}/following/users/{b}")
    @Operation(operationId = "followsUser",
            summary = "Does user a follow user b (explicitly, or only implicitly through single boards)")
    public Uni<UserFollowCheck> followsUser(@PathParam("a") String a, @PathParam("b") String b) {
        PinionId follower = user(a);
        PinionId followed = user(b);
        if (targets.knownUser(follower) && targets.knownUser(followed)) {
            // the common case, answered from the object cache without combining three ready answers
            UserFollow cached = queries.cachedUserFollow(follower.value(), followed.value());
            if (cached != null) {
                return Uni.createFrom().item(check(cached));
            }
        }
        return Uni.combine()
                .all()
                .unis(
                        targets.requireUser(follower),
                        targets.requireUser(followed),
                        queries.userFollow(follower.value(), followed.value()))
                .with((first, second, follow) -> check(follow));
    }

    private static UserFollowCheck check(UserFollow follow) {
        return new UserFollowCheck(
                follow.explicitSince() != null,
                follow.implicitSince() != null,
                follow.explicitSince() == null ? null : Instant.EPOCH.plusNanos(follow.explicitSince() * 1000));
    }

    @GET
    @Path("/users/{a}/following/boards/{x}")
    @Operation(operationId = "followsBoard",
            summary = "Does user a follow board x (explicitly, or through its owner without having unfollowed it)")
    public Uni<BoardFollowCheck> followsBoard(@PathParam("a") String a, @PathParam("x") String x) {
        PinionId follower = user(a);
        PinionId board = ids.parse(x, ObjectType.BOARD, "board id");
        return Uni.combine().all().unis(targets.requireUser(follower), queries.followsBoard(follower.value(), board))
                .with((known, follows) -> new BoardFollowCheck(follows));
    }

    @GET
    @Path("/users/{id}/followers")
    @Operation(operationId = "listUserFollowers",
            summary = "A user's followers, newest first: kind=explicit (default) or implicit (through boards)")
    public Uni<Page<FollowItem>> followers(@PathParam("id") String id, @QueryParam("kind") String kind,
            @QueryParam("cursor") String cursor, @QueryParam("limit") String limit) {
        PinionId user = user(id);
        return page(user, UserList.followers(kind), cursor, limit);
    }

    @GET
    @Path("/users/{id}/following")
    @Operation(operationId = "listUserFollowing",
            summary = "Whom a user follows, newest first: kind=explicit (default), implicit, boards or interests")
    public Uni<Page<FollowItem>> following(@PathParam("id") String id, @QueryParam("kind") String kind,
            @QueryParam("cursor") String cursor, @QueryParam("limit") String limit) {
        PinionId user = user(id);
        return page(user, UserList.following(kind), cursor, limit);
    }

    /** A page of one of an existing user's lists. */
    private Uni<Page<FollowItem>> page(PinionId user, UserList list, String cursor, String limit) {
        return targets.requireUser(user).chain(() -> lists.ofUser(user.value(), list, cursor, Limits.LIST.of(limit)));
    }

    @GET
    @Path("/boards/{id}/followers")
    @Operation(
            operationId = "listBoardFollowers",
            summary =
                    "A board's followers, newest first: kind=all (default: everyone who receives its pins) or explicit")
    public Uni<Page<FollowItem>> boardFollowers(
            @PathParam("id") String id,
            @QueryParam("kind") String kind,
            @QueryParam("cursor") String cursor,
            @QueryParam("limit") String limit) {
        PinionId board = ids.parse(id, ObjectType.BOARD, "board id");
        String which = kind == null || kind.isBlank() ? "all" : kind;
        if (!which.equals("all") && !which.equals("explicit")) {
            throw new InvalidInput("invalid_kind", "kind must be all or explicit");
        }
        int size = Limits.LIST.of(limit);
        return targets.ownerOf(board).chain(owner -> which.equals("all")
                ? lists.ofBoard(board.value(), owner, cursor, size)
                : lists.explicitOfBoard(board.value(), owner, cursor, size));
    }

    @GET
    @Path("/boards/{id}/receivers")
    @RolesAllowed({ Roles.WORKER, Roles.ADMIN })
    @Operation(operationId = "listBoardReceivers",
            summary = "Everyone who receives the board's new pins, in pages of up to 1000 for fan-out (workers)")
    public Uni<Page<FollowItem>> receivers(@PathParam("id") String id, @QueryParam("cursor") String cursor,
            @QueryParam("limit") String limit) {
        PinionId board = ids.parse(id, ObjectType.BOARD, "board id");
        int size = Limits.RECEIVERS.of(limit);
        return targets.ownerOf(board).chain(owner -> lists.ofBoard(board.value(), owner, cursor, size));
    }

    @GET
    @Path("/interests/{name}/followers")
    @Operation(operationId = "listInterestFollowers", summary = "An interest's followers, newest first")
    public Uni<Page<FollowItem>> interestFollowers(@PathParam("name") String name, @QueryParam("cursor") String cursor,
            @QueryParam("limit") String limit) {
        return lists.ofInterest(Interests.normalize(name), cursor, Limits.LIST.of(limit));
    }

    private PinionId user(String id) {
        return ids.parse(id, ObjectType.USER, "user id");
    }
}
