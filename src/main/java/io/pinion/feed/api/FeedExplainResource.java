package io.pinion.feed.api;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import io.pinion.auth.Roles;
import io.pinion.feed.explain.FeedExplainer;
import io.pinion.feed.explain.FeedExplanation;
import io.pinion.id.IdParser;
import io.pinion.id.ObjectType;
import io.smallrye.mutiny.Uni;

/**
 * Why a pin is, or is not, in a user's home feed: its path to the user, stage by stage (docs/feed.md, "Explaining
 * a delivery").
 */
@Path("/v1/admin/feed/explain")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "admin")
@RolesAllowed(Roles.ADMIN)
public class FeedExplainResource {

    private final FeedExplainer explainer;
    private final IdParser ids;

    FeedExplainResource(FeedExplainer explainer, IdParser ids) {
        this.explainer = explainer;
        this.ids = ids;
    }

    @GET
    @Operation(
            operationId = "explainFeedDelivery",
            summary = "The pin's path to the user's home feed: pin, follow, route, pool, shown and jobs, each with its "
                    + "source and evidence, and where it stopped")
    public Uni<FeedExplanation> explain(@QueryParam("user") String user, @QueryParam("pin") String pin) {
        return explainer.explain(ids.parse(user, ObjectType.USER, "user"), ids.parse(pin, ObjectType.PIN, "pin"));
    }
}
