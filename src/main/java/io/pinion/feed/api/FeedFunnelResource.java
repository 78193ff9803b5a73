package io.pinion.feed.api;

import java.time.Duration;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import io.pinion.auth.Roles;
import io.pinion.failure.InvalidInput;
import io.pinion.feed.funnel.EntityFunnels;
import io.pinion.feed.funnel.FunnelEntity;
import io.pinion.feed.funnel.FunnelRange;
import io.pinion.feed.funnel.FunnelView;
import io.pinion.id.IdParser;
import io.pinion.id.ObjectType;
import io.smallrye.mutiny.Uni;

/**
 * One pin's, author's or board's delivery funnel over time, unsampled and a few seconds behind (docs/feed.md, "The
 * funnel of one pin, author or board").
 */
@Path("/v1/admin/feed/funnel")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "admin")
@RolesAllowed(Roles.ADMIN)
public class FeedFunnelResource {

    private final EntityFunnels funnels;
    private final IdParser ids;

    FeedFunnelResource(EntityFunnels funnels, IdParser ids) {
        this.funnels = funnels;
        this.ids = ids;
    }

    @GET
    @Operation(
            operationId = "getEntityFunnel",
            summary = "The funnel of one pin, author or board: counts per stage, source and reason in buckets of"
                    + " step (minutes for the last day, hours for the last 31 days), beside this instance's global"
                    + " funnel; exactly one of pin, author and board; from and to are ISO-8601 instants (default the"
                    + " last hour), step an ISO-8601 duration (default PT1M)")
    public Uni<FunnelView> funnel(@QueryParam("pin") String pin, @QueryParam("author") String author,
            @QueryParam("board") String board, @QueryParam("from") String from, @QueryParam("to") String to,
            @QueryParam("step") String step) {
        int named = (pin == null ? 0 : 1) + (author == null ? 0 : 1) + (board == null ? 0 : 1);
        if (named != 1) {
            throw new InvalidInput("one_entity", "name exactly one of pin, author and board");
        }
        FunnelRange range = FunnelRange.parse(from, to, step, Duration.ofHours(1), Duration.ofMinutes(1));
        if (pin != null) {
            return funnels.read(FunnelEntity.PIN, ids.parse(pin, ObjectType.PIN, "pin"), range.from(), range.to(),
                    range.step());
        }
        if (author != null) {
            return funnels.read(FunnelEntity.AUTHOR, ids.parse(author, ObjectType.USER, "author"), range.from(),
                    range.to(), range.step());
        }
        return funnels.read(FunnelEntity.BOARD, ids.parse(board, ObjectType.BOARD, "board"), range.from(),
                range.to(), range.step());
    }
}
