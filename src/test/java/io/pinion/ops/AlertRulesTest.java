package io.pinion.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.pinion.stack.LocalStack;

/**
 * The alert rules shipped for Prometheus ({@code docker/prometheus/alerts.yml}) are valid ({@code promtool check
 * rules}) and fire as their cases say ({@code promtool test rules alerts.test.yml}): a queue's old backlog, the 5xx
 * share, an open breaker, a replica that stopped, an instance down, and nothing when all is well. Needs Debian's
 * {@code prometheus} package (promtool), which .ci/run installs.
 */
class AlertRulesTest {

    private static final Path DIR = LocalStack.repoRoot().resolve("docker/prometheus");

    @Test
    void theRulesAreValid() throws Exception {
        assertEquals(0, promtool("check", "rules", "alerts.yml"));
    }

    @Test
    void theRulesFireAsTheirCasesSay() throws Exception {
        assertEquals(0, promtool("test", "rules", "alerts.test.yml"));
    }

    private static int promtool(String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of("promtool"));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).directory(DIR.toFile()).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException("promtool did not finish in 60 s");
        }
        System.out.print(output);
        return process.exitValue();
    }
}
