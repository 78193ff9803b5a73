package io.pinion.feed;

import static io.pinion.TestApi.createBoard;
import static io.pinion.TestApi.createPin;
import static io.pinion.TestApi.newUser;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.pinion.TestApi.TestUser;
import io.pinion.feed.store.PoolStore;
import io.pinion.stack.StackTest;
import io.pinion.topology.ActiveTopology;
import io.pinion.topology.HBaseClusterSpec;
import io.pinion.topology.HBaseRole;
import io.pinion.topology.HBaseTopology;
import io.pinion.topology.Topology;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

/**
 * With the pools cluster unreachable (the pools role pointed at a cluster with no server behind it), the feed still
 * answers 200 with the materialized feed, within the generator budget; once the pools are back, the next visit
 * brings a larger chunk than usual.
 */
@QuarkusTest
@StackTest
class GeneratorOutageTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @Inject
    PoolStore pools;
    @Inject
    ActiveTopology topology;
    @Inject
    ObjectMapper json;
    @Inject
    FeedConfig config;

    @Test
    void theMaterializedFeedIsServedWhileThePoolsAreDownAndTheNextChunkIsLarger() throws Exception {
        TestUser a = newUser();
        TestUser b = newUser();
        String board = createBoard(b, "many pins");
        a.as().put("/v1/me/following/users/" + b.id()).then().statusCode(200);
        long user = Long.parseLong(a.id());
        for (int i = 0; i < 10; i++) {
            createPin(b, board, "first " + i);
        }
        eventually(() -> pools.top(user, FeedSource.FOLLOWING, 100).await().atMost(WAIT).size() == 10);
        List<String> shown = feed(a).getList("items.pin.id");
        assertEquals(8, shown.size(), "10 available, 20% held back");
        eventually(() -> pools.top(user, FeedSource.FOLLOWING, 100).await().atMost(WAIT).size() == 2);
        for (int i = 0; i < 60; i++) {
            createPin(b, board, "second " + i);
        }
        eventually(() -> pools.top(user, FeedSource.FOLLOWING, 100).await().atMost(WAIT).size() == 62);

        Topology original = topology.get();
        apply(withPoolsOffline(original));
        try {
            long start = System.nanoTime();
            JsonPath page = feed(a);
            long elapsedMs = (System.nanoTime() - start) / 1_000_000;
            assertEquals(shown, page.getList("items.pin.id"), "the materialized feed alone");
            assertTrue(page.getList("items.fresh", Boolean.class).stream().noneMatch(fresh -> fresh));
            long budgetMs = config.generatorBudget().toMillis();
            assertTrue(
                    elapsedMs < budgetMs + 1_000,
                    "answered within the " + budgetMs + " ms budget (plus the materialized read): " + elapsedMs
                            + " ms");
        } finally {
            apply(original);
        }

        JsonPath after = feed(a);
        long fresh = after.getList("items.fresh", Boolean.class).stream().filter(f -> f).count();
        assertEquals(50, fresh, "the chunk after a failed visit is twice the usual 25");
    }

    private static JsonPath feed(TestUser user) {
        return user.as().queryParam("limit", 100).get("/v1/me/home-feed").then().statusCode(200).extract().jsonPath();
    }

    private static Topology withPoolsOffline(Topology current) {
        List<HBaseClusterSpec> clusters = new ArrayList<>(current.hbase().clusters());
        clusters.add(new HBaseClusterSpec("hbase-offline", "127.0.0.1:16999", "127.0.0.1:21999:/hbase-offline"));
        Map<HBaseRole, String> roles = new EnumMap<>(current.hbase().roles());
        roles.put(HBaseRole.POOLS, "hbase-offline");
        return new Topology(current.mysql(), current.redis(), new HBaseTopology(clusters, roles));
    }

    private void apply(Topology next) {
        io.pinion.TestApi.putTopology(next).then().statusCode(200);
    }

    private static void eventually(BooleanSupplier condition) throws InterruptedException {
        Eventually.within(Eventually.JOBS_MS, condition);
    }
}
