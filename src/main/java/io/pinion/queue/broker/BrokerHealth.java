package io.pinion.queue.broker;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;

import io.smallrye.health.api.Wellness;

/**
 * {@code /q/health/well}: this instance's dequeue broker, the partitions it owns and the jobs it has buffered.
 * DOWN while the broker has no ZooKeeper session (it serves no partition then; they may have moved away). Kept
 * out of readiness: a broker cut off from ZooKeeper does not stop the rest of the API from serving.
 */
@Wellness
@ApplicationScoped
public class BrokerHealth implements HealthCheck {

    private final LocalBroker local;

    BrokerHealth(LocalBroker local) {
        this.local = local;
    }

    @Override
    public HealthCheckResponse call() {
        HealthCheckResponseBuilder response = HealthCheckResponse.named("dequeue-broker");
        DequeueBroker broker = local.broker().orElse(null);
        if (broker == null) {
            return response.up().withData("enabled", false).build();
        }
        long age = System.currentTimeMillis() - broker.lastBalanced();
        return response.status(broker.connected())
                .withData("broker", broker.id())
                .withData("ownedPartitions", String.join(",", broker.ownedPartitions()))
                .withData("ownedPartitionCount", broker.ownedPartitions().size())
                .withData("buffered", broker.buffered())
                .withData("rebalancedAgoMs", broker.lastBalanced() > 0 ? age : -1)
                .build();
    }
}
