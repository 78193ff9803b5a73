package io.pinion.stack;

import java.util.Map;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * Makes sure the local stack (two MariaDB, two Redis, two HBase) is running before the application under test
 * starts. A running stack is reused; the stack is left running afterwards for the next run.
 */
public class StackResource implements QuarkusTestResourceLifecycleManager {

    @Override
    public Map<String, String> start() {
        long start = System.currentTimeMillis();
        String output = LocalStack.run("up");
        System.out.printf("local stack ready in %d ms%n%s%n", System.currentTimeMillis() - start, output);
        return Map.of();
    }

    @Override
    public void stop() {
        // left running on purpose: the next test run reuses it; `bin/stack down` stops it
    }
}
