package io.pinion.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import io.pinion.TestApi.TestUser;
import io.pinion.TestApi;
import io.pinion.Wait;
import io.pinion.stack.LocalStack;
import io.pinion.stack.StackTest;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;

/**
 * {@code GET /v1/admin/overview/cluster} with a real Prometheus (Debian's {@code prometheus}, which .ci/run installs)
 * scraping the test instance's management interface every second, on the port the test profile names
 * ({@code pinion.prometheus.url}, set by its profile): the instances up and the request rates come from it; with
 * Prometheus stopped, the call answers 503 {@code backend_unavailable} within its timeout, and the rest of the
 * dashboard's API still works.
 */
@QuarkusTest
@StackTest
@TestProfile(ClusterOverviewTest.WithPrometheus.class)
class ClusterOverviewTest {

    private static final int PORT = 19090;

    /** The Prometheus this test starts (no other test has one: without it, the endpoint would answer 503). */
    public static class WithPrometheus implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("pinion.prometheus.url", "http://127.0.0.1:" + PORT, "pinion.prometheus.timeout", "1s");
        }
    }

    @Test
    void theClustersFiguresComeFromPrometheusAndItsOutageIsAFast503() throws Exception {
        TestUser admin = TestApi.admin();
        Path dir = LocalStack.repoRoot().resolve("target/cluster-overview-prometheus");
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("prometheus.yml"), """
            global:
              scrape_interval: 1s
            scrape_configs:
              - job_name: pinion
                metrics_path: /q/metrics
                static_configs:
                  - targets: ['127.0.0.1:%d']
            """.formatted(TestApi.MANAGEMENT_PORT));
        Process prometheus = new ProcessBuilder(
                        "prometheus",
                        "--config.file=" + dir.resolve("prometheus.yml"),
                        "--storage.tsdb.path=" + dir.resolve("data-" + System.nanoTime()),
                        "--web.listen-address=127.0.0.1:" + PORT)
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("prometheus.log").toFile())
                .start();
        try {
            AtomicReference<Response> response = new AtomicReference<>();
            Wait.within(60_000, () -> {
                admin.as().get("/v1/admin/backends"); // requests of the admin group, so that it has a rate
                response.set(admin.as().get("/v1/admin/overview/cluster"));
                JsonPath figures = response.get().statusCode() == 200 ? response.get().jsonPath() : null;
                return figures != null && figures.getInt("instances") == 1 && figures.getList(
                        "requests.findAll { it.group == 'admin' && it.ratePerSec > 0 }").size() == 1;
            }, () -> "figures from Prometheus (last: " + (response.get().statusCode() == 200 ? response.get().asString()
                    : response.get().statusCode()) + ")");
            JsonPath cluster = response.get().jsonPath();
            assertTrue(cluster.getBoolean("configured"));
            List<Map<String, Object>> groups = cluster.getList("requests");
            System.out.printf(
                    "cluster overview from Prometheus: %d instance(s), %s%n", cluster.getInt("instances"), groups);
        } finally {
            prometheus.destroy();
            assertTrue(prometheus.waitFor(30, TimeUnit.SECONDS), "Prometheus stopped");
        }

        // Prometheus gone: a fast 503 in the error shape; the instance's own overview still answers
        long started = System.nanoTime();
        admin.as().get("/v1/admin/overview/cluster").then().statusCode(503)
                .body("error", org.hamcrest.Matchers.equalTo("backend_unavailable"))
                .body("message", org.hamcrest.Matchers.containsString("prometheus"));
        long tookMs = (System.nanoTime() - started) / 1_000_000;
        assertTrue(tookMs < 1_500, "the 503 came within Prometheus's timeout (1 s here): " + tookMs + " ms");
        assertEquals(200, admin.as().get("/v1/admin/overview").statusCode());
    }
}
