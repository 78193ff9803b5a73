package io.pinion.queue.api;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.ResponseStatus;

import io.pinion.auth.Roles;
import io.pinion.failure.InvalidInput;
import io.pinion.failure.NotFound;
import io.pinion.id.IdParser;
import io.pinion.id.ObjectType;
import io.pinion.id.PinionId;
import io.pinion.paging.Page;
import io.pinion.queue.Ack;
import io.pinion.queue.JobAcks;
import io.pinion.queue.JobLocator;
import io.pinion.queue.JobQueries;
import io.pinion.queue.JobRepairs;
import io.smallrye.mutiny.Uni;

/**
 * Jobs by id: acks, lease extension, lookup, retry and deletion (admin or worker).
 */
@Path("/v1")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "queues")
public class JobResource {

    /** One ack's outcome: acked, lease_lost or not_found. */
    public record AckView(String id, String result) {
    }

    private final JobAcks acks;
    private final JobQueries queries;
    private final JobRepairs repairs;
    private final JobLocator locator;
    private final IdParser ids;
    private final LeaseTokens tokens;
    private final QueueAccess access;

    JobResource(JobAcks acks, JobQueries queries, JobRepairs repairs, JobLocator locator, IdParser ids,
            LeaseTokens tokens, QueueAccess access) {
        this.acks = acks;
        this.queries = queries;
        this.repairs = repairs;
        this.locator = locator;
        this.ids = ids;
        this.tokens = tokens;
        this.access = access;
    }

    @POST
    @Path("/jobs/ack")
    @RolesAllowed({Roles.ADMIN, Roles.WORKER})
    @Operation(operationId = "ackJobs",
            summary = "Ack up to 1,000 jobs: success, or failure (retried with backoff until the last attempt)")
    public Uni<Page<AckView>> ack(@NotNull AckRequest request) {
        if (request.acks() == null || request.acks().isEmpty() || request.acks().size() > QueueInput.MAX_BATCH) {
            throw new InvalidInput("invalid_batch", "acks has 1 to " + QueueInput.MAX_BATCH + " items");
        }
        List<Ack> parsed = new ArrayList<>(request.acks().size());
        for (int i = 0; i < request.acks().size(); i++) {
            AckRequest.Item item = request.acks().get(i);
            String field = "acks[" + i + "]";
            if (item == null) {
                throw new InvalidInput("invalid_batch", field + " is missing");
            }
            boolean success;
            if ("success".equals(item.outcome())) {
                success = true;
            } else if ("failure".equals(item.outcome())) {
                success = false;
            } else {
                throw new InvalidInput("invalid_outcome", field + ".outcome must be 'success' or 'failure'");
            }
            if (item.retryDelayMs() != null) {
                if (success) {
                    throw new InvalidInput("invalid_retry_delay", field + ".retryDelayMs applies to failures only");
                }
                QueueInput.range(field + ".retryDelayMs", item.retryDelayMs(), 0, 365L * 24 * 3600 * 1000);
            }
            PinionId job = ids.parse(item.id(), ObjectType.JOB, field + ".id");
            String status = QueueInput.status(item.status(), field + ".status");
            parsed.add(new Ack(job, null, tokens.lease(job, item.leaseToken(), field + ".leaseToken"), success, status,
                    item.retryDelayMs()));
        }
        return acks.ack(parsed, queue -> access.allowed(queue, QueueAccess.Use.WORK))
                .map(results -> new Page<>(
                        results.stream()
                                .map(result -> new AckView(result.id().toString(), result.result()))
                                .toList(),
                        null));
    }

    @POST
    @Path("/jobs/{id}/checkpoint")
    @RolesAllowed({Roles.ADMIN, Roles.WORKER})
    @Operation(
            operationId = "checkpointJob",
            summary = "Extend a running job's lease (and append to its status); 409 lease_lost when it is no longer"
                    + " yours")
    public Uni<Map<String, Object>> checkpoint(@PathParam("id") String id, @NotNull CheckpointRequest request) {
        PinionId job = ids.parse(id, ObjectType.JOB, "job id");
        long token = tokens.lease(job, request.leaseToken(), "leaseToken");
        String status = QueueInput.status(request.status(), "status");
        return locator.locate(job).flatMap(found -> {
            JobLocator.Location location = found.orElseThrow(() -> new NotFound("job_not_found", "no job " + id));
            long extend = request.extendMs() != null ? request.extendMs() : location.queue().config().leaseMs();
            QueueInput.range("extendMs", extend, 1_000, 86_400_000);
            return access.allowed(location.queue().name(), QueueAccess.Use.WORK)
                    .chain(() -> acks.checkpoint(job, token, extend, status));
        }).map(expires -> Map.of("id", id, "leaseExpiresAt", java.time.Instant.ofEpochMilli(expires)));
    }

    @GET
    @Path("/jobs/{id}")
    @RolesAllowed({Roles.ADMIN, Roles.WORKER})
    @Operation(operationId = "getJob", summary = "A job with its state, attempts, lease and status")
    public Uni<JobView> get(@PathParam("id") String id) {
        return queries.get(ids.parse(id, ObjectType.JOB, "job id"))
                .call(job -> access.allowed(job.queue(), QueueAccess.Use.READ))
                .map(JobView::of);
    }

    @POST
    @Path("/jobs/{id}/retry")
    @RolesAllowed({Roles.ADMIN, Roles.WORKER})
    @Operation(operationId = "retryJob", summary = "Put a FAILED job back to PENDING with fresh attempts")
    public Uni<JobView> retry(@PathParam("id") String id) {
        PinionId job = ids.parse(id, ObjectType.JOB, "job id");
        return queries.get(job).call(found -> access.allowed(found.queue(), QueueAccess.Use.REPAIR))
                .chain(() -> repairs.retry(job)).map(JobView::of);
    }

    @DELETE
    @Path("/jobs/{id}")
    @RolesAllowed({Roles.ADMIN, Roles.WORKER})
    @ResponseStatus(204)
    @Operation(operationId = "deleteJob", summary = "Delete a job in any state")
    public Uni<Void> delete(@PathParam("id") String id) {
        PinionId job = ids.parse(id, ObjectType.JOB, "job id");
        return queries.get(job).call(found -> access.allowed(found.queue(), QueueAccess.Use.REPAIR))
                .chain(() -> repairs.delete(job));
    }
}
