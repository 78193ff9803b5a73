package io.pinion.users.api;

import java.util.List;
import java.util.regex.Pattern;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import io.pinion.auth.Roles;
import io.pinion.failure.InvalidInput;
import io.pinion.id.IdParser;
import io.pinion.id.ObjectType;
import io.pinion.id.PinionId;
import io.pinion.users.Grants;
import io.pinion.users.UserGrants;
import io.smallrye.mutiny.Uni;

/**
 * Roles and queue grants, by an admin: {@code admin} and {@code worker} roles, and the queues a worker may use over
 * HTTP. A token issued after a grant carries the role; a revoked role or queue stops working within a minute.
 */
@Path("/v1/admin/users/{id}")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Roles.ADMIN)
@SecurityRequirement(name = "bearer")
@Tag(name = "admin")
public class GrantResource {

    private static final Pattern QUEUE = Pattern.compile("[a-z0-9][a-z0-9._-]{0,63}");

    /** A user's grants. */
    public record GrantsView(String userId, List<String> roles, List<String> queues) {
    }

    private final UserGrants grants;
    private final IdParser ids;

    GrantResource(UserGrants grants, IdParser ids) {
        this.grants = grants;
        this.ids = ids;
    }

    @GET
    @Path("/grants")
    @Operation(operationId = "getGrants", summary = "The user's roles and queue grants")
    public Uni<GrantsView> get(@PathParam("id") String id) {
        PinionId user = user(id);
        return grants.of(user).map(found -> view(user, found));
    }

    @PUT
    @Path("/roles/{role}")
    @Operation(operationId = "grantRole", summary = "Grant a role (admin or worker); idempotent")
    public Uni<GrantsView> grantRole(@PathParam("id") String id, @PathParam("role") String role) {
        PinionId user = user(id);
        return grants.grantRole(user, role).map(found -> view(user, found));
    }

    @DELETE
    @Path("/roles/{role}")
    @Operation(operationId = "revokeRole", summary = "Revoke a role; tokens stop carrying it within a minute")
    public Uni<GrantsView> revokeRole(@PathParam("id") String id, @PathParam("role") String role) {
        PinionId user = user(id);
        return grants.revokeRole(user, role).map(found -> view(user, found));
    }

    @PUT
    @Path("/queues/{name}")
    @Operation(operationId = "grantQueue", summary = "Let a worker use a queue over HTTP; idempotent")
    public Uni<GrantsView> grantQueue(@PathParam("id") String id, @PathParam("name") String name) {
        PinionId user = user(id);
        return grants.grantQueue(user, queue(name)).map(found -> view(user, found));
    }

    @DELETE
    @Path("/queues/{name}")
    @Operation(operationId = "revokeQueue", summary = "Take a queue from a worker; effective within a minute")
    public Uni<GrantsView> revokeQueue(@PathParam("id") String id, @PathParam("name") String name) {
        PinionId user = user(id);
        return grants.revokeQueue(user, queue(name)).map(found -> view(user, found));
    }

    private PinionId user(String id) {
        return ids.parse(id, ObjectType.USER, "user id");
    }

    private static String queue(String name) {
        if (name == null || !QUEUE.matcher(name).matches()) {
            throw new InvalidInput("invalid_queue_name", "a queue name is 1-64 of a-z, 0-9, '.', '_', '-'");
        }
        return name;
    }

    private static GrantsView view(PinionId user, Grants grants) {
        return new GrantsView(user.toString(), grants.roles(), grants.queues());
    }
}
