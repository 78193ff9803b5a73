package io.pinion.health;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import io.quarkus.vertx.http.ManagementInterface;
import io.smallrye.health.SmallRyeHealth;
import io.smallrye.health.SmallRyeHealthReporter;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * What operators and scrapers read and clients do not: the management interface ({@code quarkus.management.*},
 * 127.0.0.1:9000 by default) serves {@code /q/metrics} and the backends health group,
 * {@code /q/health/group/backends} (from probe results at most {@code pinion.health.probe-reuse} old), and the whole
 * health report and wellness ({@code /q/health}, {@code /q/health/well}). The main port keeps {@code /q/health/live},
 * {@code /q/health/ready} and {@code /q/health/started} for load balancers and answers 404 for the rest.
 */
@ApplicationScoped
public class ManagementRoutes {

    private final SmallRyeHealthReporter reporter;

    ManagementRoutes(SmallRyeHealthReporter reporter) {
        this.reporter = reporter;
    }

    void management(@Observes ManagementInterface management) {
        Router router = management.router();
        router.get("/q/health/group/" + BackendReadiness.GROUP).handler(context ->
                respond(context, reporter.getHealthGroupAsync(BackendReadiness.GROUP)));
        router.get("/q/health/well").handler(context -> respond(context, reporter.getWellnessAsync()));
        router.get("/q/health").handler(context -> respond(context, reporter.getHealthAsync()));
    }

    /**
     * The main port keeps liveness, readiness and start-up, which say UP or DOWN and nothing internal; the whole
     * report, wellness (the dequeue broker's partitions) and the groups (the backends group probes every backend) are
     * for operators.
     */
    void main(@Observes Router router) {
        for (String path : new String[] { "/q/health", "/q/health/well", "/q/health/group*" }) {
            router.route(path).order(Integer.MIN_VALUE).handler(context -> context.response().setStatusCode(404)
                    .putHeader("Content-Type", "application/json")
                    .end("{\"error\":\"not_found\",\"message\":\"served on the management interface\"}"));
        }
    }

    private static void respond(RoutingContext context, Uni<SmallRyeHealth> report) {
        report.subscribe().with(health -> context.response().setStatusCode(health.isDown() ? 503 : 200)
                .putHeader("Content-Type", "application/json; charset=UTF-8")
                .end(health.getPayload().toString()), context::fail);
    }
}
