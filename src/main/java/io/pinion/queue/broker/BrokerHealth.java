package io.pinion.queue.broker;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;

import io.pinion.queue.QueueSettings;
import io.smallrye.health.api.Wellness;

/**
 * {@code /q/health/well}: this instance's dequeue broker, the partitions it owns and the jobs it has buffered.
 * DOWN when its last successful heartbeat is older than the lease TTL (its partitions may have moved away).
 * Kept out of readiness: a broker that cannot heartbeat does not stop the rest of the API from serving.
 */
@Wellness
@ApplicationScoped
public class BrokerHealth implements HealthCheck {

    private final LocalBroker local;
    private final QueueSettings settings;

    BrokerHealth(LocalBroker local, QueueSettings settings) {
        this.local = local;
        this.settings = settings;
    }

    @Override
    public HealthCheckResponse call() {
        HealthCheckResponseBuilder response = HealthCheckResponse.named("dequeue-broker");
        DequeueBroker broker = local.broker().orElse(null);
        if (broker == null) {
            return response.up().withData("enabled", false).build();
        }
        long age = System.currentTimeMillis() - broker.lastHeartbeat();
        boolean fresh = broker.lastHeartbeat() > 0 && age <= settings.brokerLeaseTtl().toMillis();
        return response.status(fresh)
                .withData("broker", broker.id())
                .withData("ownedPartitions", String.join(",", broker.ownedPartitions()))
                .withData("ownedPartitionCount", broker.ownedPartitions().size())
                .withData("buffered", broker.buffered())
                .withData("heartbeatAgeMs", broker.lastHeartbeat() > 0 ? age : -1)
                .build();
    }
}
