package io.pinion.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The container deployment, run for real: {@code docker/verify --no-package} builds the images (bin/images, from the
 * engine's layer cache when it has them), starts docker/compose.yml as a project of this checkout's own, waits for
 * every health check, runs the API smoke through the service's container (with the primary HBase container paused
 * for the hedged reads) and removes the project. It uses the {@code target/quarkus-app} that {@code package} built
 * before this phase, and publishes only the service, on a free port in 18080-18179.
 * <p>
 * Skipped, saying why, when the machine has no podman and podman-compose (docker/README.md says how to install
 * them), or with {@code -Dpinion.containers.skip=true}.
 */
class ContainerDeploymentIT {

    /** From cached images about 3 minutes; the first run on a machine also builds the images (about 2 more). */
    private static final long TIMEOUT_MINUTES = 12;

    @Test
    void theComposeProjectStartsServesTheSmokeAndIsRemoved() throws IOException, InterruptedException {
        runOnlyIf(
                !Boolean.getBoolean("pinion.containers.skip"),
                "container deployment skipped (-Dpinion.containers.skip=true)");
        runOnlyIf(onPath("podman") && onPath("podman-compose"),
                "container deployment not verified: podman and podman-compose are not installed "
                        + "(apt-get install podman runc podman-compose buildah debootstrap; docker/README.md)");
        runOnlyIf(Files.isRegularFile(Path.of("target/quarkus-app/quarkus-run.jar")),
                "container deployment not verified: no target/quarkus-app (run ./mvnw package first)");

        Path log = Path.of("target/docker-verify.log");
        Process verify = new ProcessBuilder("bash", "docker/verify", "--no-package")
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        boolean finished = verify.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES);
        if (!finished) {
            // TERM lets the script's trap remove the project
            verify.destroy();
            verify.waitFor(2, TimeUnit.MINUTES);
        }
        List<String> output = Files.readAllLines(log);
        output.forEach(line -> System.out.println("[docker/verify] " + line));
        assertTrue(finished, "docker/verify did not finish within " + TIMEOUT_MINUTES + " minutes (" + log + ")");
        assertEquals(0, verify.exitValue(), "docker/verify failed (" + log + ")");
        assertTrue(output.contains("docker/verify: PASSED"), "docker/verify passed");
        assertTrue(output.stream().anyMatch(line -> line.startsWith("== teardown: 0 containers left")),
                "nothing of the project is left running");
    }

    /** Skips the test, saying why in the build's output as well as in its report. */
    private static void runOnlyIf(boolean condition, String reason) {
        if (!condition) {
            System.out.println("[ContainerDeploymentIT] SKIPPED: " + reason);
        }
        assumeTrue(condition, reason);
    }

    private static boolean onPath(String command) {
        return Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
                .anyMatch(dir -> Files.isExecutable(Path.of(dir, command)));
    }
}
