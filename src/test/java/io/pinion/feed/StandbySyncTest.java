package io.pinion.feed;

import static io.pinion.TestApi.admin;
import static io.pinion.TestApi.createBoard;
import static io.pinion.TestApi.createPin;
import static io.pinion.TestApi.newUser;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

import jakarta.inject.Inject;

import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

import io.pinion.TestApi.TestUser;
import io.pinion.feed.store.FeedTables;
import io.pinion.feed.store.MaterializedKey;
import io.pinion.feed.store.PoolStore;
import io.pinion.hbase.HBaseCalls;
import io.pinion.stack.StackTest;
import io.pinion.topology.HBaseRole;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

/**
 * The materialized feed reaches the standby cluster through HBase replication (the peer the service sets up), and
 * the marker probe measures the lag.
 */
@QuarkusTest
@StackTest
class StandbySyncTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @Inject
    FeedTables tables;
    @Inject
    PoolStore pools;

    @Test
    void aMaterializedChunkShowsUpOnTheStandby() throws Exception {
        TestUser a = newUser();
        TestUser b = newUser();
        String board = createBoard(b, "replicated");
        a.as().put("/v1/me/following/users/" + b.id()).then().statusCode(200);
        for (int i = 0; i < 3; i++) {
            createPin(b, board, "replicated " + i);
        }
        long user = Long.parseLong(a.id());
        eventually(() -> pools.top(user, FeedSource.FOLLOWING, 10).await().atMost(WAIT).size() == 3);
        a.as().queryParam("limit", 10).get("/v1/me/home-feed").then().statusCode(200);
        eventually(() -> entries(HBaseRole.MATERIALIZED_PRIMARY, user).size() == 3);
        eventually(() -> rows(HBaseRole.MATERIALIZED_STANDBY, user).equals(rows(HBaseRole.MATERIALIZED_PRIMARY, user)));
    }

    @Test
    void theProbeMeasuresTheLag() {
        TestUser admin = admin();
        JsonPath lags = admin.as().queryParam("count", 20).post("/v1/admin/feed/standby-lag/probes").then()
                .statusCode(200).extract().jsonPath();
        assertEquals(20, lags.getInt("probes"), "every probe saw its marker");
        assertEquals(0, lags.getInt("failed"));
        assertTrue(lags.getLong("p99Ms") < 500, "p99 under 500 ms: " + lags.prettify());
        admin.as().get("/v1/admin/feed/standby-lag").then().statusCode(200);
        admin.as().queryParam("count", 0).post("/v1/admin/feed/standby-lag/probes").then().statusCode(400)
                .body("error", equalTo("invalid_count"));
        newUser().as().get("/v1/admin/feed/standby-lag").then().statusCode(403);
    }

    /** The user's entries on one cluster (not the shown index). */
    private List<String> entries(HBaseRole role, long user) {
        return rows(role, new Scan().setStartStopRowForPrefixScan(MaterializedKey.prefix(user))
                .addFamily(FeedTables.MATERIALIZED_FAMILY));
    }

    /** The user's rows on one cluster, entries and shown index, as "row=value" strings. */
    private List<String> rows(HBaseRole role, long user) {
        return rows(role, new Scan().setStartStopRowForPrefixScan(MaterializedKey.prefix(user)));
    }

    private List<String> rows(HBaseRole role, Scan scan) {
        List<Result> results = tables.materialized(role).chain(table -> HBaseCalls.uni(() -> table.scanAll(scan)))
                .await().atMost(WAIT);
        List<String> rows = new ArrayList<>();
        for (Result result : results) {
            rows.add(Bytes.toStringBinary(result.getRow()) + "=" + Bytes.toStringBinary(result.value()));
        }
        return rows;
    }

    private static void eventually(BooleanSupplier condition) throws InterruptedException {
        Eventually.within(Eventually.JOBS_MS, condition);
    }
}
