package io.pinion.users.api;

import java.time.Duration;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponseSchema;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.ResponseStatus;

import io.pinion.auth.CurrentUser;
import io.pinion.failure.NotFound;
import io.pinion.failure.Outages;
import io.pinion.graph.FollowCounts;
import io.pinion.graph.FollowQueries;
import io.pinion.id.IdParser;
import io.pinion.id.ObjectType;
import io.pinion.id.PinionId;
import io.pinion.ratelimit.RateLimits;
import io.pinion.users.LoginRequest;
import io.pinion.users.Session;
import io.pinion.users.SignUpRequest;
import io.pinion.users.UserService;
import io.pinion.users.UserView;
import io.pinion.web.ClientAddresses;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpServerRequest;

/**
 * Sign-up, login, profiles.
 */
@Path("/v1")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "users")
public class UserResource {

    private final UserService users;
    private final IdParser ids;
    private final CurrentUser currentUser;
    private final FollowQueries follows;
    private final RateLimits limits;
    private final ClientAddresses clients;

    UserResource(UserService users, IdParser ids, CurrentUser currentUser, FollowQueries follows, RateLimits limits,
            ClientAddresses clients) {
        this.limits = limits;
        this.clients = clients;
        this.users = users;
        this.ids = ids;
        this.currentUser = currentUser;
        this.follows = follows;
    }

    @POST
    @Path("/users")
    @ResponseStatus(201)
    @APIResponseSchema(value = UserView.class, responseCode = "201", responseDescription = "Created")
    @Operation(operationId = "signUp",
            summary = "Sign up: a unique username (3-30 of a-z 0-9 _), a password of 8 to 72 bytes")
    public Uni<UserView> signUp(@NotNull @Valid SignUpRequest request, @Context HttpServerRequest http) {
        limits.loginFrom(address(http));
        return users.signUp(request).map(view -> view.withFollows(FollowCounts.NONE));
    }

    @POST
    @Path("/sessions")
    @Operation(operationId = "logIn", summary = "Log in: returns a signed bearer token")
    public Uni<Session> login(@NotNull @Valid LoginRequest request, @Context HttpServerRequest http) {
        String address = address(http);
        limits.loginFrom(address);
        long slowedMs = limits.loginAs(request.username(), address);
        if (slowedMs > 0) {
            return Uni.createFrom().voidItem().onItem().delayIt().by(Duration.ofMillis(slowedMs))
                    .chain(() -> users.login(request));
        }
        return users.login(request);
    }

    /** The client's address: the socket peer's, or the one a trusted proxy forwards ({@code pinion.http.*}). */
    private String address(HttpServerRequest http) {
        return clients.of(http);
    }

    @GET
    @Path("/users/{id}")
    @Operation(operationId = "getUser", summary = "A user's profile with counts")
    public Uni<UserView> get(@PathParam("id") String id) {
        PinionId userId = ids.parse(id, ObjectType.USER, "user id");
        return found(users.get(userId), userId);
    }

    @GET
    @Path("/me")
    @Authenticated
    @SecurityRequirement(name = "bearer")
    @Operation(operationId = "getMe", summary = "The signed-in user's profile")
    public Uni<UserView> me() {
        PinionId userId = currentUser.id();
        return found(users.get(userId), userId);
    }

    private Uni<UserView> found(Uni<UserView> user, PinionId id) {
        return user.onItem().ifNull().failWith(() -> new NotFound("user_not_found", "no user " + id))
                .chain(view -> follows.counts(id.value()).map(view::withFollows)
                        .onFailure(Outages::isUnavailable).recoverWithItem(view));
    }
}
