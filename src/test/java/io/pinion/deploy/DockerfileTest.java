package io.pinion.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * The Dockerfiles under docker/, read as text, for what {@link ContainerDeploymentIT} (docker/verify) cannot show on a
 * machine without a registry: that each image builds on the public base image users pull by default (the run builds
 * them on the Debian-built bases of bin/images), that the native image, which is not built here, is consistent with
 * the pom and runs as a non-root user with a health check, and that the JVM image keeps its layers in the order that
 * makes a code change ship only the last ones.
 */
class DockerfileTest {

    private static final Path JVM = Path.of("docker/Dockerfile.jvm");
    private static final Path NATIVE = Path.of("docker/Dockerfile.native");
    private static final Path HBASE = Path.of("docker/hbase/Dockerfile");
    private static final Path LOCAL = Path.of("docker/local");

    /** Each Dockerfile built by bin/images, and the public image its BASE_IMAGE defaults to (the native one: below). */
    private static final Map<Path, String> PUBLIC_BASES = Map.of(
            JVM, "registry.access.redhat.com/ubi9/openjdk-17-runtime:",
            HBASE, "docker.io/library/eclipse-temurin:17-jre",
            LOCAL.resolve("Dockerfile.java"), "docker.io/library/debian:bookworm",
            LOCAL.resolve("Dockerfile.mariadb"), "docker.io/library/debian:bookworm",
            LOCAL.resolve("Dockerfile.redis"), "docker.io/library/debian:bookworm",
            LOCAL.resolve("Dockerfile.haproxy"), "docker.io/library/debian:bookworm");

    @Test
    void everyImageBuiltByBinImagesTakesItsBaseAsABuildArgumentDefaultingToThePublicImage() throws IOException {
        try (var files = Files.list(LOCAL)) {
            files.filter(file -> file.getFileName().toString().startsWith("Dockerfile"))
                    .forEach(file -> assertTrue(PUBLIC_BASES.containsKey(file), file + " is checked here"));
        }
        String images = Files.readString(Path.of("bin/images"));
        PUBLIC_BASES.forEach((file, expected) -> {
            DockerfileText dockerfile = DockerfileText.read(file);
            String base = dockerfile.globalArgDefault("BASE_IMAGE");
            assertNotNull(base, file + " declares ARG BASE_IMAGE=<public image> before its FROM");
            assertTrue(base.startsWith(expected), file + ": BASE_IMAGE defaults to " + base + ", expected " + expected);
            assertEquals("${BASE_IMAGE}", dockerfile.finalBaseImage(), file + " builds on BASE_IMAGE");
            assertEquals(1, dockerfile.stages().size(), file + " has one stage: nothing else to pull");
            assertTrue(images.contains(file.toString()), "bin/images builds " + file);
        });
    }

    @Test
    void theNativeImageRunsAsANonRootUserWithAHealthCheckOnTheServicePort() {
        DockerfileText nativeImage = DockerfileText.read(NATIVE);
        List<String> users = nativeImage.inFinalStage("USER");
        assertFalse(users.isEmpty(), NATIVE + " sets a USER in its final stage");
        String user = users.get(users.size() - 1).split(":")[0];
        assertFalse(user.equals("root") || user.equals("0"), NATIVE + " runs as " + user);
        List<String> checks = nativeImage.inFinalStage("HEALTHCHECK");
        assertEquals(1, checks.size(), NATIVE + " has one HEALTHCHECK");
        assertTrue(checks.get(0).contains("pinion-healthcheck"), NATIVE + " probes over HTTP");
        assertTrue(
                nativeImage.inFinalStage("EXPOSE").stream()
                        .anyMatch(ports -> List.of(ports.split("\\s+")).contains("8080")),
                NATIVE + " exposes 8080");
    }

    @Test
    void theNativeExecutableIsBuiltWithTheBuilderImageOfTheNativeProfile() throws IOException {
        DockerfileText nativeImage = DockerfileText.read(NATIVE);
        assertEquals(2, nativeImage.stages().size(), "a build stage and a runtime stage");
        assertEquals("${BUILDER_IMAGE}", DockerfileText.baseImage(nativeImage.stages().get(0).get(0)));
        String builder = nativeImage.globalArgDefault("BUILDER_IMAGE");
        assertTrue(Files.readString(Path.of("pom.xml")).contains("<quarkus.native.builder-image>" + builder + "<"),
                "the pom's native profile names the same builder image: " + builder);
        assertTrue(nativeImage.everywhere("RUN").stream().anyMatch(run -> run.contains("package -Dnative")));
        assertTrue(nativeImage.inFinalStage("COPY").stream().anyMatch(copy -> copy.contains("--from=build")));
        assertEquals("${BASE_IMAGE}", nativeImage.finalBaseImage());
        String base = nativeImage.globalArgDefault("BASE_IMAGE");
        assertTrue(base.startsWith("quay.io/quarkus/") && base.contains("micro"), "a minimal runtime: " + base);
    }

    @Test
    void theJvmImageCopiesTheQuarkusAppInItsFourLayersLeastChangedFirst() {
        List<String> sources = new ArrayList<>();
        for (String copy : DockerfileText.read(JVM).inFinalStage("COPY")) {
            sources.addAll(copySources(copy));
        }
        assertEquals(List.of("target/quarkus-app/lib/", "target/quarkus-app/*.jar", "target/quarkus-app/app/",
                "target/quarkus-app/quarkus/"), sources.subList(0, 4));
    }

    @Test
    void everyFileCopiedFromTheRepositoryExistsAndIsLetThroughByDockerignore() throws IOException {
        List<String> allowed = Files.readAllLines(Path.of(".dockerignore")).stream()
                .map(String::strip)
                .filter(line -> line.startsWith("!"))
                .map(line -> line.substring(1))
                .toList();
        for (Path file : List.of(JVM, NATIVE, HBASE)) {
            for (String copy : DockerfileText.read(file).everywhere("COPY")) {
                if (copy.contains("--from=")) {
                    continue;
                }
                for (String source : copySources(copy)) {
                    String path = source.endsWith("/") ? source.substring(0, source.length() - 1) : source;
                    assertTrue(
                            allowed.stream().anyMatch(prefix -> path.equals(prefix) || path.startsWith(prefix + "/")),
                            file + " copies " + source + ", which .dockerignore leaves out");
                    if (!path.startsWith("target/")) {
                        assertTrue(Files.exists(Path.of(path)), file + " copies " + source + ", which does not exist");
                    }
                }
            }
        }
    }

    /** The source paths of a COPY (options and the destination dropped). */
    private static List<String> copySources(String copy) {
        List<String> words = new ArrayList<>(List.of(copy.split("\\s+")));
        words.removeIf(word -> word.startsWith("--"));
        assertFalse(words.size() < 2, "COPY " + copy);
        return words.subList(0, words.size() - 1);
    }
}
