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
import io.pinion.queue.QueuePartition;
import io.pinion.queue.QueueRegistry;
import io.pinion.queue.broker.BrokerLeases;
import io.smallrye.mutiny.Uni;

/** The live dequeue brokers and the partitions each owns. */
@Path("/v1")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "queues")
public class BrokerResource {

    public record BrokerView(String id, String address, Instant startedAt, Instant heartbeatAt, Instant expiresAt,
            List<String> partitions) {
    }

    private final BrokerLeases leases;
    private final QueueRegistry registry;

    BrokerResource(BrokerLeases leases, QueueRegistry registry) {
        this.leases = leases;
        this.registry = registry;
    }

    @GET
    @Path("/admin/brokers")
    @RolesAllowed(Roles.ADMIN)
    @Operation(summary = "Live dequeue brokers with the partitions they own ('queue/partition')")
    public Uni<List<BrokerView>> brokers() {
        long now = System.currentTimeMillis();
        return leases.live(now).flatMap(brokers -> leases.partitions().map(partitions -> {
            List<BrokerView> views = new ArrayList<>();
            for (BrokerLeases.Broker broker : brokers) {
                List<String> owned = partitions.stream()
                        .filter(partition -> broker.id().equals(partition.owner()) && partition.leaseExpires() >= now)
                        .map(this::label)
                        .toList();
                views.add(new BrokerView(broker.id(), broker.address(), Instant.ofEpochMilli(broker.startedAt()),
                        Instant.ofEpochMilli(broker.heartbeatAt()), Instant.ofEpochMilli(broker.expiresAt()), owned));
            }
            return views;
        }));
    }

    private String label(QueuePartition partition) {
        return registry.cachedById(partition.queueId()).map(queue -> queue.name()).orElse("#" + partition.queueId())
                + "/" + partition.partition();
    }
}
