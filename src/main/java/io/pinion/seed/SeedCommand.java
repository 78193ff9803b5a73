package io.pinion.seed;

import java.io.PrintStream;
import java.nio.file.Path;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.StartupEvent;

/**
 * {@code bin/seed}: when {@code pinion.seed.run=true}, the started service seeds the configured data set on a
 * thread of its own, prints a summary and exits (0 on success, 1 on failure).
 */
@ApplicationScoped
class SeedCommand {

    private final SeedConfig config;
    private final Seeder seeder;

    SeedCommand(SeedConfig config, Seeder seeder) {
        this.config = config;
        this.seeder = seeder;
    }

    void onStart(@Observes StartupEvent start) {
        if (!config.run()) {
            return;
        }
        Thread thread = new Thread(this::seed, "pinion-seed");
        thread.setDaemon(true);
        thread.start();
    }

    private void seed() {
        PrintStream out = System.out;
        int code = 0;
        try {
            SeedPlan plan = config.plan();
            out.printf("seeding %s (prefix %s, seed %d) into the topology's MySQL hosts and Redis instances%n", plan,
                    plan.prefix(), plan.seed());
            SeedReport report = seeder.run(plan, Path.of(config.out()), config.worker(), config.backfill(), out,
                    System.console() != null);
            out.printf(
                    "manifest: %s (follow backfills enqueued for the sample users: %d)%n",
                    report.manifest(), report.backfills());
            out.printf("followers per user: median %d, max %d; fingerprint %016x%n", report.medianFollowers(),
                    report.maxFollowers(), report.fingerprint());
            StringBuilder result = new StringBuilder("RESULT name=seed");
            report.counts().forEach((name, value) -> result.append(' ').append(name).append('=').append(value));
            report.seconds().forEach((name, value) -> result.append(' ').append(name.replace('+', '_')).append("_s=")
                    .append(String.format("%.1f", value)));
            result.append(String.format(" elapsed_s=%.1f", report.totalSeconds()));
            out.println(result);
        } catch (Throwable failure) {
            out.println("seed failed: " + failure);
            failure.printStackTrace(out);
            code = 1;
        }
        out.flush();
        Quarkus.asyncExit(code);
    }
}
