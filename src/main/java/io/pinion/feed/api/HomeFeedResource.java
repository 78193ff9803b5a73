package io.pinion.feed.api;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import io.pinion.auth.CurrentUser;
import io.pinion.feed.read.FeedItem;
import io.pinion.feed.read.HomeFeedService;
import io.pinion.paging.Limits;
import io.pinion.paging.Page;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;

/**
 * {@code GET /v1/me/home-feed}: new pins first (first page only), then what the user saw before.
 */
@Path("/v1")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "feed")
public class HomeFeedResource {

    private final HomeFeedService feed;
    private final CurrentUser currentUser;

    HomeFeedResource(HomeFeedService feed, CurrentUser currentUser) {
        this.feed = feed;
        this.currentUser = currentUser;
    }

    @GET
    @Path("/me/home-feed")
    @Authenticated
    @SecurityRequirement(name = "bearer")
    @Operation(operationId = "getHomeFeed",
            summary = "The home feed: the first page brings new pins (best first) before those shown earlier; "
                    + "limit 1-100 applies to the earlier ones")
    public Uni<Page<FeedItem>> homeFeed(@QueryParam("limit") String limit, @QueryParam("cursor") String cursor) {
        return feed.page(currentUser.id(), cursor, Limits.FEED.of(limit));
    }
}
