package io.pinion.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import jakarta.ws.rs.Path;

import org.junit.jupiter.api.Test;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;

import io.pinion.mysql.QueryCount;
import io.pinion.redis.RedisErrors;
import io.pinion.web.AuthFailureHandoff;
import io.pinion.web.QueryCountHeader;
import io.pinion.web.WriteRateFilter;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;

/**
 * The shape of the code, as docs/architecture.md draws it: packages never depend on each other in a circle, every
 * layer points only down, and HTTP (JAX-RS, status codes, the error shape) is spoken only by the resources in
 * {@code *.api} packages and by {@code web}.
 */
class ArchitectureTest {

    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.pinion");

    /** The features, in the order they may use each other: a feature only uses those below it. */
    static final String[] FEATURES = {
        "io.pinion.feed.explain",
        "io.pinion.feed.read",
        "io.pinion.feed.fanout",
        "io.pinion.feed.funnel",
        "io.pinion.feed.store",
        "io.pinion.feed",
        "io.pinion.pins",
        "io.pinion.boards",
        "io.pinion.users",
        "io.pinion.ops.commands",
        "io.pinion.ops.overview",
        "io.pinion.ops.failover",
        "io.pinion.ops",
        "io.pinion.graph.repair",
        "io.pinion.graph",
        "io.pinion.graph.admin",
        "io.pinion.queue",
        "io.pinion.queue.work",
        "io.pinion.queue.broker",
        "io.pinion.queue.broker.pacing",
        "io.pinion.health",
        "io.pinion.ratelimit",
        "io.pinion.auth"
    };

    @Test
    void noPackageDependsOnItselfInACircle() {
        slices().matching("io.pinion.(**)").should().beFreeOfCycles().check(CLASSES);
    }

    @Test
    void layersPointOnlyDown() {
        layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("Application").definedBy("io.pinion.seed..", "io.pinion.nativeimage..", "io.pinion.logging..")
                .layer("HTTP").definedBy("io.pinion..api..", "io.pinion.web..")
                .layer("Features").definedBy(FEATURES)
                .layer("Stores").definedBy("io.pinion.store..")
                .layer("Backend clients").definedBy("io.pinion.mysql..", "io.pinion.redis..", "io.pinion.hbase..",
                        "io.pinion.hedge..", "io.pinion.breaker..", "io.pinion.zookeeper..", "io.pinion.prometheus..")
                .layer("Foundation").definedBy("io.pinion.topology..", "io.pinion.id..", "io.pinion.paging..",
                        "io.pinion.failure..")
                .whereLayer("Application").mayNotBeAccessedByAnyLayer()
                .whereLayer("HTTP").mayOnlyBeAccessedByLayers("Application")
                .whereLayer("Features").mayOnlyBeAccessedByLayers("HTTP", "Application")
                .whereLayer("Stores").mayOnlyBeAccessedByLayers("Features", "Application")
                .whereLayer("Backend clients").mayOnlyBeAccessedByLayers("Stores", "Features", "Application")
                .whereLayer("Foundation").mayOnlyBeAccessedByLayers("Backend clients", "Stores", "Features", "HTTP",
                        "Application")
                // the one door from HTTP to a backend client: the per-request MySQL statement count, a diagnostic
                .ignoreDependency(QueryCountHeader.class, QueryCount.class)
                .check(CLASSES);
    }

    @Test
    void everyPackageBelongsToALayer() {
        classes()
                .should()
                .resideInAnyPackage(concat(
                        FEATURES,
                        "io.pinion.seed..",
                        "io.pinion.nativeimage..",
                        "io.pinion.logging..",
                        "io.pinion..api..",
                        "io.pinion.web..",
                        "io.pinion.store..",
                        "io.pinion.mysql..",
                        "io.pinion.redis..",
                        "io.pinion.hbase..",
                        "io.pinion.hedge..",
                        "io.pinion.breaker..",
                        "io.pinion.zookeeper..",
                        "io.pinion.prometheus..",
                        "io.pinion.topology..",
                        "io.pinion.id..",
                        "io.pinion.paging..",
                        "io.pinion.failure.."))
                .check(CLASSES);
    }

    @Test
    void onlyResourcesAndWebSpeakHttp() {
        noClasses().that().resideOutsideOfPackages("io.pinion..api..", "io.pinion.web..")
                .should().dependOnClassesThat().resideInAnyPackage("jakarta.ws.rs..", "org.jboss.resteasy..",
                        "io.pinion.web..")
                .because("stores and services throw the typed failures of io.pinion.failure, which web maps to HTTP")
                .check(CLASSES);
    }

    /**
     * Framework-internal types ({@code ..impl..}, {@code ..internal..}, an extension's {@code runtime} package) change
     * without notice between versions. Allowed: {@code QuarkusSecurityIdentity}, the identity builder the Quarkus
     * security guide itself uses; {@code RedisErrors}, the one door to the Redis client's error reply type (the
     * client has no public one); and {@code AuthFailureHandoff}, which puts in the authentication failure handler
     * Quarkus REST's filter would, through the HTTP security's public static helpers, so that the filter's cost on
     * every request is not paid (docs/benchmarks.md); and {@code WriteRateFilter}, a route that resolves a write's
     * deferred identity through {@code QuarkusHttpUser}'s public static helper, so that reads skip a REST filter.
     */
    @Test
    void noFrameworkInternalsAreUsed() {
        DescribedPredicate<JavaClass> internal = JavaClass.Predicates.resideInAnyPackage("..impl..", "..internal..",
                "io.quarkus.*.runtime..", "io.quarkus.*.*.runtime..")
                .and(DescribedPredicate.not(JavaClass.Predicates.belongToAnyOf(QuarkusSecurityIdentity.class)));
        noClasses().that().doNotBelongToAnyOf(RedisErrors.class, AuthFailureHandoff.class, WriteRateFilter.class)
                .should().dependOnClassesThat(internal)
                .check(CLASSES);
    }

    @Test
    void resourcesLiveInApiPackages() {
        classes().that().areAnnotatedWith(Path.class).should().resideInAPackage("io.pinion..api..").check(CLASSES);
    }

    private static String[] concat(String[] first, String... rest) {
        String[] all = new String[first.length + rest.length];
        System.arraycopy(first, 0, all, 0, first.length);
        System.arraycopy(rest, 0, all, first.length, rest.length);
        return all;
    }
}
