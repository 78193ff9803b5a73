package io.pinion.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The Dockerfiles under docker/, read as text (no Docker here): non-root users, health checks, the service port,
 * the Quarkus layers, and nothing copied that the build context leaves out.
 */
class DockerfileTest {

    private static final Path JVM = Path.of("docker/Dockerfile.jvm");
    private static final Path NATIVE = Path.of("docker/Dockerfile.native");
    private static final Path HBASE = Path.of("docker/hbase/Dockerfile");

    @Test
    void bothServiceImagesRunAsANonRootUserWithAHealthCheckOnTheServicePort() {
        for (Path file : List.of(JVM, NATIVE)) {
            DockerfileText dockerfile = DockerfileText.read(file);
            assertRunsAsNonRoot(dockerfile);
            assertHasHealthCheck(dockerfile);
            assertTrue(dockerfile.inFinalStage("EXPOSE").stream().anyMatch(ports -> List.of(ports.split("\\s+")).contains("8080")),
                    file + " exposes 8080");
            assertTrue(dockerfile.inFinalStage("HEALTHCHECK").get(0).contains("pinion-healthcheck"), file + " probes over HTTP");
        }
    }

    @Test
    void theHBaseImageRunsAsANonRootUserWithAHealthCheck() {
        DockerfileText hbase = DockerfileText.read(HBASE);
        assertRunsAsNonRoot(hbase);
        assertHasHealthCheck(hbase);
    }

    @Test
    void theJvmImageCopiesTheQuarkusAppInItsFourLayersLeastChangedFirst() {
        DockerfileText jvm = DockerfileText.read(JVM);
        List<String> sources = new ArrayList<>();
        for (String copy : jvm.inFinalStage("COPY")) {
            sources.addAll(copySources(copy));
        }
        assertEquals(List.of("target/quarkus-app/lib/", "target/quarkus-app/*.jar", "target/quarkus-app/app/",
                "target/quarkus-app/quarkus/"), sources.subList(0, 4));
        assertTrue(jvm.finalBaseImage().contains("openjdk-17"), "a Java 17 runtime: " + jvm.finalBaseImage());
        assertTrue(String.join(" ", jvm.inFinalStage("ENV")).contains("-Dquarkus.http.host=0.0.0.0"));
    }

    @Test
    void theNativeExecutableIsBuiltWithTheBuilderImageOfTheNativeProfile() throws IOException {
        DockerfileText nativeImage = DockerfileText.read(NATIVE);
        assertEquals(2, nativeImage.stages().size(), "a build stage and a runtime stage");
        String builder = DockerfileText.baseImage(nativeImage.stages().get(0).get(0));
        assertTrue(Files.readString(Path.of("pom.xml")).contains("<quarkus.native.builder-image>" + builder + "<"),
                "the pom's native profile names the same builder image: " + builder);
        assertTrue(nativeImage.everywhere("RUN").stream().anyMatch(run -> run.contains("package -Dnative")));
        assertTrue(nativeImage.inFinalStage("COPY").stream().anyMatch(copy -> copy.contains("--from=build")));
        assertTrue(nativeImage.finalBaseImage().contains("micro"), "a minimal runtime: " + nativeImage.finalBaseImage());
    }

    @Test
    void everyFileCopiedFromTheBuildContextExistsAndIsLetThroughByDockerignore() throws IOException {
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
                    assertTrue(allowed.stream().anyMatch(prefix -> path.equals(prefix) || path.startsWith(prefix + "/")),
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

    private static void assertRunsAsNonRoot(DockerfileText dockerfile) {
        List<String> users = dockerfile.inFinalStage("USER");
        assertFalse(users.isEmpty(), dockerfile.file() + " sets a USER in its final stage");
        String user = users.get(users.size() - 1).split(":")[0];
        assertFalse(user.equals("root") || user.equals("0"), dockerfile.file() + " runs as " + user);
    }

    private static void assertHasHealthCheck(DockerfileText dockerfile) {
        List<String> checks = dockerfile.inFinalStage("HEALTHCHECK");
        assertEquals(1, checks.size(), dockerfile.file() + " has one HEALTHCHECK");
        assertTrue(checks.get(0).contains("CMD"), dockerfile.file() + ": " + checks.get(0));
    }
}
