package io.pinion.stack;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Drives the project's {@code bin/stack} script from tests: brings the stack up, and stops, starts, pauses or
 * resumes single servers for fault tests.
 */
public final class LocalStack {

    private LocalStack() {
    }

    /** Runs {@code bin/stack ARGS…}; fails with the script's output when it exits non-zero. */
    public static String run(String... args) {
        Path script = repoRoot().resolve("bin/stack");
        List<String> command = new ArrayList<>();
        command.add("bash");
        command.add(script.toString());
        command.addAll(List.of(args));
        try {
            Path output = Files.createTempFile("pinion-stack", ".log");
            ProcessBuilder builder = new ProcessBuilder(command)
                    .directory(repoRoot().toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(output.toFile());
            // a MariaDB server starts read-only and is made writable only when the topology in force names it master
            Path topology = repoRoot().resolve("target/test-topology.json");
            if (Files.exists(topology)) {
                builder.environment().put("PINION_TOPOLOGY_FILE", topology.toString());
            }
            Process process = builder.start();
            if (!process.waitFor(10, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new IllegalStateException(
                        "bin/stack " + String.join(" ", args) + " did not finish in 10 minutes");
            }
            String text = Files.readString(output, StandardCharsets.UTF_8);
            Files.deleteIfExists(output);
            if (process.exitValue() != 0) {
                throw new IllegalStateException("bin/stack " + String.join(" ", args) + " exited "
                        + process.exitValue() + ":\n" + text);
            }
            return text;
        } catch (IOException e) {
            throw new IllegalStateException("cannot run bin/stack", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running bin/stack", e);
        }
    }

    public static Path repoRoot() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.exists(dir.resolve("bin/stack"))) {
            dir = dir.getParent();
        }
        if (dir == null) {
            throw new IllegalStateException("bin/stack not found above " + Path.of("").toAbsolutePath());
        }
        return dir;
    }
}
