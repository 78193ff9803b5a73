package io.pinion.stack;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * Makes sure the local stack (two MariaDB, two Redis, two HBase) is running before the application under test
 * starts. A running stack is reused; the stack is left running afterwards for the next run.
 */
public class StackResource implements QuarkusTestResourceLifecycleManager {

    @Override
    public Map<String, String> start() {
        copyLocalTopologyForTests();
        long start = System.currentTimeMillis();
        String output = LocalStack.run("up");
        System.out.printf("local stack ready in %d ms%n%s%n", System.currentTimeMillis() - start, output);
        return Map.of();
    }

    /** Tests run on target/test-topology.json (pinion.topology.file in %test), a fresh copy of the local topology. */
    private static void copyLocalTopologyForTests() {
        try (InputStream in = StackResource.class.getClassLoader().getResourceAsStream("topology/local.json")) {
            Path target = LocalStack.repoRoot().resolve("target/test-topology.json");
            Files.createDirectories(target.getParent());
            Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void stop() {
        // left running on purpose: the next test run reuses it; `bin/stack down` stops it
    }
}
