package io.pinion.queue.api;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import io.pinion.auth.Roles;
import io.pinion.failure.NotFound;
import io.pinion.queue.QueueRegistry;
import io.pinion.queue.broker.BrokerDirectory;
import io.pinion.queue.broker.DequeueBroker;
import io.pinion.queue.broker.LocalBroker;
import io.smallrye.mutiny.Uni;

/** The live dequeue brokers and the partitions each serves, as ZooKeeper has them; this instance's broker's record. */
@Path("/v1")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "queues")
public class BrokerResource {

    public record BrokerView(String id, String address, Instant startedAt, List<String> partitions) {
    }

    /**
     * One partition ('queue/partition') this broker served from {@code from} until {@code until} (null: still does).
     */
    public record TenureView(String partition, Instant from, Instant until) {}

    /** This instance's broker: its session, what it serves now and the record of what it served. */
    public record LocalBrokerView(String id, boolean connected, List<String> partitions, List<TenureView> tenures) {
    }

    private final BrokerDirectory seats;
    private final LocalBroker local;
    private final QueueRegistry registry;

    BrokerResource(BrokerDirectory seats, LocalBroker local, QueueRegistry registry) {
        this.seats = seats;
        this.local = local;
        this.registry = registry;
    }

    @GET
    @Path("/admin/brokers")
    @RolesAllowed(Roles.ADMIN)
    @Operation(
            operationId = "listBrokers",
            summary = "Live dequeue brokers (members in ZooKeeper) with the partitions they serve ('queue/partition')")
    public Uni<List<BrokerView>> brokers() {
        return seats.members()
                .flatMap(members -> seats.owners().map(owners -> {
                    List<BrokerView> views = new ArrayList<>();
                    for (BrokerDirectory.Member member : members) {
                        List<String> served = owners.entrySet().stream()
                                .filter(owner -> member.id().equals(owner.getValue()))
                                .map(owner -> label(owner.getKey()))
                                .toList();
                        views.add(new BrokerView(
                                member.id(), member.address(), Instant.ofEpochMilli(member.startedAt()), served));
                    }
                    return views;
                }));
    }

    @GET
    @Path("/admin/brokers/local")
    @RolesAllowed(Roles.ADMIN)
    @Operation(
            operationId = "getLocalBroker",
            summary =
                    "This instance's broker: its ZooKeeper session, the partitions it serves and when it served which")
    public LocalBrokerView local() {
        DequeueBroker broker = local.broker().orElseThrow(() -> new NotFound("broker_not_running",
                "this instance runs no dequeue broker"));
        return new LocalBrokerView(
                broker.id(),
                broker.connected(),
                broker.ownedPartitions().stream().map(this::label).toList(),
                broker.tenures().stream()
                        .map(tenure -> new TenureView(
                                label(tenure.partition()),
                                Instant.ofEpochMilli(tenure.from()),
                                tenure.until() == null ? null : Instant.ofEpochMilli(tenure.until())))
                        .toList());
    }

    /** 'queueId/partition' as 'queue-name/partition'. */
    private String label(String key) {
        int slash = key.indexOf('/');
        long queueId = Long.parseLong(key.substring(0, slash));
        return registry.cachedById(queueId).map(queue -> queue.name()).orElse("#" + queueId) + key.substring(slash);
    }
}
