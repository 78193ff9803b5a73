package io.pinion.queue.api;

import java.util.Comparator;
import java.util.List;
import java.util.Map;

import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponseSchema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.ResponseStatus;

import io.pinion.auth.Roles;
import io.pinion.failure.InvalidInput;
import io.pinion.paging.Limits;
import io.pinion.paging.Page;
import io.pinion.queue.JobQueries;
import io.pinion.queue.JobRepairs;
import io.pinion.queue.JobState;
import io.pinion.queue.JobWriter;
import io.pinion.queue.QueueRegistry;
import io.pinion.queue.QueueSettings;
import io.pinion.queue.QueueStats;
import io.pinion.queue.broker.BrokerDirectory;
import io.pinion.topology.ActiveTopology;
import io.smallrye.mutiny.Uni;

/**
 * Queues: configuration (admin), and enqueue, dequeue, scans, counts and retries (admin, or a worker granted the
 * queue; never enqueue or dequeue on the service's own queues: {@link QueueAccess}).
 */
@Path("/v1")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "queues")
public class QueueResource {

    private final QueueRegistry registry;
    private final JobWriter writer;
    private final JobQueries queries;
    private final JobRepairs repairs;
    private final Dequeues dequeues;
    private final QueueSettings settings;
    private final ActiveTopology topology;
    private final QueueAccess access;
    private final BrokerDirectory seats;

    QueueResource(QueueRegistry registry, JobWriter writer, JobQueries queries, JobRepairs repairs, Dequeues dequeues,
            QueueSettings settings, ActiveTopology topology, QueueAccess access, BrokerDirectory seats) {
        this.seats = seats;
        this.registry = registry;
        this.writer = writer;
        this.queries = queries;
        this.repairs = repairs;
        this.dequeues = dequeues;
        this.settings = settings;
        this.topology = topology;
        this.access = access;
    }

    @POST
    @Path("/queues")
    @RolesAllowed(Roles.ADMIN)
    @ResponseStatus(201)
    @APIResponseSchema(value = QueueView.class, responseCode = "201", responseDescription = "Created")
    @Operation(operationId = "createQueue",
            summary = "Create a queue: partitions, rate limit, attempts, backoff, lease, priority, FIFO, retention")
    public Uni<QueueView> create(@NotNull QueueRequest request) {
        String name = QueueInput.name(request.name());
        return registry.create(name, QueueInput.create(request, settings.maxBodyBytes(), shardCount()))
                .map(queue -> QueueView.of(queue, Map.of()));
    }

    @GET
    @Path("/queues")
    @RolesAllowed({Roles.ADMIN, Roles.WORKER})
    @Operation(operationId = "listQueues",
            summary = "Every queue the caller may see: all for admins, those granted to a worker")
    public Uni<Page<QueueView>> list() {
        return access.visible()
                .chain(visible -> registry.refresh()
                        .flatMap(ignored -> owners())
                        .map(owners -> new Page<>(
                                registry.cached().stream()
                                        .filter(queue -> visible.test(queue.name()))
                                        .sorted(Comparator.comparing(queue -> queue.name()))
                                        .map(queue -> QueueView.of(queue, owners))
                                        .toList(),
                                null)));
    }

    @GET
    @Path("/queues/{name}")
    @RolesAllowed({Roles.ADMIN, Roles.WORKER})
    @Operation(operationId = "getQueue", summary = "A queue's settings and partitions")
    public Uni<QueueView> get(@PathParam("name") String name) {
        return access.queue(name, QueueAccess.Use.READ)
                .flatMap(queue -> owners().map(owners -> QueueView.of(queue, owners)));
    }

    @PATCH
    @Path("/queues/{name}")
    @RolesAllowed(Roles.ADMIN)
    @Operation(operationId = "updateQueue",
            summary = "Change a queue's settings; every instance applies them within a second")
    public Uni<QueueView> update(@PathParam("name") String name, @NotNull QueueRequest request) {
        return registry.refresh().flatMap(ignored -> registry.get(name))
                .flatMap(queue -> registry.update(queue, QueueInput.update(queue, request, shardCount())))
                .flatMap(queue -> owners().map(owners -> QueueView.of(queue, owners)));
    }

    @DELETE
    @Path("/queues/{name}")
    @RolesAllowed(Roles.ADMIN)
    @ResponseStatus(204)
    @Operation(operationId = "deleteQueue", summary = "Delete a queue and every job in it")
    public Uni<Void> delete(@PathParam("name") String name) {
        return registry.get(name).flatMap(registry::delete);
    }

    @POST
    @Path("/queues/{name}/jobs")
    @RolesAllowed({Roles.ADMIN, Roles.WORKER})
    @Operation(operationId = "enqueueJobs",
            summary = "Enqueue one job, or up to 1,000 in 'jobs' (one INSERT per partition)")
    public Uni<Response> enqueue(@PathParam("name") String name, @NotNull EnqueueRequest request) {
        return access.queue(name, QueueAccess.Use.WORK)
                .flatMap(queue -> writer.enqueue(queue, QueueInput.jobs(request, queue.config())))
                .map(results -> {
                    List<EnqueuedView> views = results.stream()
                            .map(result -> new EnqueuedView(result.id().toString(), result.created())).toList();
                    Object body = request.jobs() == null ? views.get(0) : new Page<>(views, null);
                    return Response.status(201).entity(body).build();
                });
    }

    @POST
    @Path("/queues/{name}/dequeue")
    @RolesAllowed({Roles.ADMIN, Roles.WORKER})
    @Operation(operationId = "dequeueJobs", summary = "Lease up to 'max' jobs, waiting up to 'waitMs' for the first",
            description = "Jobs come from this instance's partitions, or, when none is due there, from the instances "
                    + "that own the queue's other partitions (the call is forwarded with the caller's credentials)")
    public Uni<Page<LeaseView>> dequeue(@PathParam("name") String name, DequeueRequest request,
            @HeaderParam(HttpHeaders.AUTHORIZATION) String authorization,
            @Parameter(hidden = true) @HeaderParam(PeerDequeues.FORWARDED) String forwarded) {
        int max = request == null || request.max() == null ? 1 : request.max();
        long waitMs = request == null || request.waitMs() == null ? 0 : request.waitMs();
        QueueInput.range("max", max, 1, QueueInput.MAX_BATCH);
        QueueInput.range("waitMs", waitMs, 0, settings.maxDequeueWait().toMillis());
        return access.queue(name, QueueAccess.Use.WORK)
                .flatMap(queue -> forwarded != null ? dequeues.here(queue.name(), max, waitMs)
                        : dequeues.anywhere(queue.name(), max, waitMs, authorization))
                .map(leases -> new Page<>(leases, null));
    }

    @GET
    @Path("/queues/{name}/jobs")
    @RolesAllowed({Roles.ADMIN, Roles.WORKER})
    @Operation(operationId = "listQueueJobs",
            summary = "Jobs in one state (PENDING, RUNNING, SUCCEEDED, FAILED), partition by partition in id order")
    public Uni<Page<JobView>> scan(@PathParam("name") String name, @QueryParam("state") String state,
            @QueryParam("limit") String limit, @QueryParam("cursor") String cursor) {
        JobState parsed = JobState.parse(state).orElseThrow(() -> new InvalidInput("invalid_state",
                "state must be one of PENDING, RUNNING, SUCCEEDED, FAILED"));
        int size = Limits.LIST.of(limit);
        return access.queue(name, QueueAccess.Use.READ).flatMap(queue -> queries.scan(queue, parsed, cursor, size))
                .map(page -> new Page<>(page.items().stream().map(JobView::of).toList(), page.nextCursor()));
    }

    @GET
    @Path("/queues/{name}/stats")
    @RolesAllowed({Roles.ADMIN, Roles.WORKER})
    @Operation(operationId = "getQueueStats",
            summary = "Jobs per state and the age of the oldest due job, per partition and in total")
    public Uni<QueueStats> stats(@PathParam("name") String name) {
        return access.queue(name, QueueAccess.Use.READ)
                .flatMap(queue -> owners().flatMap(owners -> queries.stats(queue, owners)));
    }

    @POST
    @Path("/queues/{name}/retry-failed")
    @RolesAllowed({Roles.ADMIN, Roles.WORKER})
    @Operation(operationId = "retryFailedJobs",
            summary = "Put up to 'limit' (default 1,000) FAILED jobs back to PENDING with fresh attempts")
    public Uni<Map<String, Long>> retryFailed(@PathParam("name") String name, @QueryParam("limit") String limit) {
        int max = Limits.REPAIR.of(limit);
        return access.queue(name, QueueAccess.Use.REPAIR).flatMap(queue -> repairs.retryFailed(queue, max))
                .map(count -> Map.of("retried", count));
    }

    private int shardCount() {
        return topology.get().mysql().shardCount();
    }

    /** Which broker serves each partition, as ZooKeeper has it; none known while it is out of reach. */
    private Uni<Map<String, String>> owners() {
        return seats.owners().onFailure().recoverWithItem(Map.of());
    }
}
