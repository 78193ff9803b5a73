package io.pinion.stack;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import io.quarkus.test.common.WithTestResource;

/**
 * Marks a {@code @QuarkusTest} that runs against the local stack (MariaDB, Redis, HBase, ZooKeeper): {@link
 * StackResource} makes sure the stack is up before the application starts. Every test class that carries it shares
 * one set of test resources, so Quarkus starts the application once for all of them (and again only for a test
 * profile of its own).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@WithTestResource(StackResource.class)
public @interface StackTest {
}
