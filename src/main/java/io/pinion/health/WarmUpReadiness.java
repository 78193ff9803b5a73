package io.pinion.health;

import java.util.Locale;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

/**
 * Not ready while the start-up warm-up runs: a load balancer that waits for readiness sends the first users to an
 * instance whose code is compiled and whose connections are open.
 */
@Readiness
@ApplicationScoped
public class WarmUpReadiness implements HealthCheck {

    private final WarmUp warmUp;

    WarmUpReadiness(WarmUp warmUp) {
        this.warmUp = warmUp;
    }

    @Override
    public HealthCheckResponse call() {
        HealthCheckResponseBuilder response = HealthCheckResponse.named("warm-up")
                .status(!warmUp.running())
                .withData("state", warmUp.state().name().toLowerCase(Locale.ROOT))
                .withData("requests", warmUp.sent());
        warmUp.outcomes().forEach(response::withData);
        return response.build();
    }
}
