package io.pinion.stack;

import io.quarkus.test.common.QuarkusTestResource;

/**
 * Registers {@link StackResource} for every {@code @QuarkusTest} of the suite.
 */
@SuppressWarnings("deprecation")
@QuarkusTestResource(StackResource.class)
public final class UsesLocalStack {

    private UsesLocalStack() {
    }
}
