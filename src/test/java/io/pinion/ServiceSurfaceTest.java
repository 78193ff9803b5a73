package io.pinion;

import static io.pinion.TestApi.admin;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;

import org.junit.jupiter.api.Test;

import io.pinion.stack.StackTest;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The operational surface: topology, Prometheus metrics, OpenAPI document and its UI.
 */
@QuarkusTest
@StackTest
class ServiceSurfaceTest {

    @Test
    void theTopologyInForceIsServedWithIdsOfHostsAndRanges() {
        admin().as().when().get("/v1/admin/topology")
                .then().statusCode(200)
                .body("mysql.shardCount", equalTo(64))
                .body("mysql.hosts[1].shards[0][0]", equalTo(32))
                .body("redis.virtualShards", equalTo(8192))
                .body("hbase.roles.materializedStandby", equalTo("hbase-standby"));
    }

    @Test
    void metricsArePrometheusTextWithBackendGauges() throws InterruptedException {
        admin().as().when().get("/v1/admin/topology").then().statusCode(200);
        awaitMetric("pinion_backend_up{backend=\"hbase-standby\"");
        io.pinion.TestApi.management().accept("text/plain").when().get("/q/metrics")
                .then().statusCode(200)
                .contentType(containsString("text/plain"))
                .body(containsString("pinion_http_group_seconds_count{group=\"pins\""))
                .body(not(containsString("http_server_requests_seconds")))
                .body(containsString("pinion_backend_up{backend=\"mysql-1\",kind=\"mysql\""))
                .body(containsString("pinion_backend_probe_seconds_count{"));
    }

    /** Metrics and the backends health group are for operators: the main port, which clients reach, has neither. */
    @Test
    void theMainPortServesNoMetricsAndNoHealthGroup() {
        given().when().get("/q/metrics").then().statusCode(404);
        given().when().get("/q/health/group/backends").then().statusCode(404);
        given().when().get("/q/health/group").then().statusCode(404);
        given().when().get("/q/health").then().statusCode(404);
        given().when().get("/q/health/well").then().statusCode(404);
        io.pinion.TestApi.management().when().get("/q/health/well").then().statusCode(200);
        given().when().get("/q/health/ready").then().statusCode(200);
        given().when().get("/q/health/live").then().statusCode(200);
        io.pinion.TestApi.management().when().get("/q/health/group/backends").then().statusCode(200);
    }

    /**
     * The gauges appear after the first scheduled probe, a second or two after start; the test goes on either way and
     * asserts the ones it needs.
     */
    private static void awaitMetric(String text) throws InterruptedException {
        Wait.upTo(15_000, () -> io.pinion.TestApi.management().accept("text/plain").when().get("/q/metrics").then()
                .extract().asString().contains(text));
    }

    @Test
    void theOpenApiDocumentAndItsUiAreServed() {
        given().when().get("/q/openapi?format=json")
                .then().statusCode(200)
                .body("info.title", equalTo("Pinion API"))
                .body("paths", org.hamcrest.Matchers.hasKey("/v1/admin/topology"));
        given().when().get("/q/swagger-ui/")
                .then().statusCode(200)
                .body(containsString("swagger"));
    }
}
