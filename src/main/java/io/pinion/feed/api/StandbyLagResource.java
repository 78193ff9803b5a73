package io.pinion.feed.api;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import io.pinion.auth.Roles;
import io.pinion.failure.InvalidInput;
import io.pinion.feed.store.StandbyLag.LagSummary;
import io.pinion.feed.store.StandbyLag;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/**
 * The materialized feed's replication lag to the standby, as measured by marker probes (docs/feed.md).
 */
@Path("/v1/admin/feed/standby-lag")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "admin")
@RolesAllowed(Roles.ADMIN)
public class StandbyLagResource {

    private static final int MAX_PROBES = 1000;

    private final StandbyLag lag;

    StandbyLagResource(StandbyLag lag) {
        this.lag = lag;
    }

    @GET
    @Operation(operationId = "getStandbyLag", summary = "Lags of the recent scheduled and on-demand probes (ms)")
    public LagSummary recent() {
        return lag.summary();
    }

    @POST
    @Path("/probes")
    @Operation(operationId = "probeStandbyLag",
            summary = "Run count probes one after the other (1-1000, default 20) and return their lags (ms)")
    public Uni<LagSummary> probe(@QueryParam("count") String count) {
        int n = count(count);
        List<Long> lags = new ArrayList<>();
        AtomicLong failed = new AtomicLong();
        return Multi.createFrom().range(0, n)
                .onItem().transformToUniAndConcatenate(i -> lag.probe()
                        .onFailure().recoverWithItem(failure -> {
                            failed.incrementAndGet();
                            return null;
                        }))
                .onItem().invoke(ms -> {
                    if (ms != null) {
                        lags.add(ms);
                    }
                })
                .collect().last()
                .map(ignored -> LagSummary.of(lags, failed.get()));
    }

    private static int count(String raw) {
        if (raw == null || raw.isBlank()) {
            return 20;
        }
        try {
            int n = Integer.parseInt(raw.trim());
            if (n >= 1 && n <= MAX_PROBES) {
                return n;
            }
        } catch (NumberFormatException ignored) {
            // below
        }
        throw new InvalidInput("invalid_count", "count must be a whole number from 1 to " + MAX_PROBES);
    }
}
