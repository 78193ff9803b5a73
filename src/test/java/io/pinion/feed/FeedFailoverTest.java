package io.pinion.feed;

import static io.pinion.TestApi.admin;
import static io.pinion.TestApi.createBoard;
import static io.pinion.TestApi.createPin;
import static io.pinion.TestApi.newUser;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

import jakarta.inject.Inject;

import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.MeterRegistry;
import io.pinion.TestApi.TestUser;
import io.pinion.Wait;
import io.pinion.feed.fanout.FeedJobs;
import io.pinion.feed.store.FeedTables;
import io.pinion.feed.store.MaterializedFeed;
import io.pinion.feed.store.MaterializedKey;
import io.pinion.feed.store.PoolStore;
import io.pinion.hbase.HBaseCalls;
import io.pinion.queue.QueueRegistry;
import io.pinion.stack.LocalStack;
import io.pinion.stack.StackTest;
import io.pinion.topology.HBaseRole;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

/**
 * The feed stays readable while the primary HBase cluster (which locally also holds the pools) is paused or killed:
 * reads are hedged to the standby; after SIGCONT the primary answers again; a chunk persisted while the primary is
 * dead is retried through the job queue and reaches it after the restart, and the two clusters then agree.
 */
@QuarkusTest
@StackTest
@Tag("fault")
class FeedFailoverTest {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final int PINS = 30;

    @Inject
    PoolStore pools;
    @Inject
    FeedTables tables;
    @Inject
    MeterRegistry registry;
    @Inject
    QueueRegistry queues;

    @Test
    void pausedPrimaryTheFeedIsServedFromTheStandbyThenThePrimaryTakesItBack() throws Exception {
        Reader reader = readerWithAFeed();
        List<String> firstPage = reader.page(null);
        String cursor = reader.cursor;
        List<String> secondPage = reader.page(cursor);

        LocalStack.run("pause", "hbase-primary");
        try {
            double standbyBefore = standbyWins();
            for (int i = 0; i < 5; i++) {
                assertEquals(firstPage, reader.page(null), "first page from the standby (the pools are paused too)");
                assertEquals(secondPage, reader.page(cursor), "next page from the standby");
            }
            assertTrue(standbyWins() >= standbyBefore + 10, "the standby answered the hedged reads");
        } finally {
            LocalStack.run("resume", "hbase-primary");
        }
        double primaryBefore = primaryReads();
        eventually(() -> {
            reader.page(cursor);
            return primaryReads() > primaryBefore + 5;
        });
    }

    @Test
    void killedPrimaryReadsFailOverAndAChunkPersistedMeanwhileReachesItAfterTheRestart() throws Exception {
        Reader reader = readerWithAFeed();
        List<String> shown = reader.page(null);
        TestUser b = reader.author;
        TestUser admin = admin();
        // persisting is held from here until the primary is dead: a queue's settings reach this instance's cache
        // within a refresh interval (1 s) and its partitions at the broker's next heartbeat (250 ms in tests), which
        // can be later than the pins below are pooled and shown, so the test waits for both
        admin.as().body(Map.of("rateLimit", 0)).patch("/v1/queues/" + FeedJobs.PERSIST).then().statusCode(200);
        eventually(() -> queues.cached(FeedJobs.PERSIST).map(queue -> queue.config().paused()).orElse(false));
        Wait.pause(Duration.ofSeconds(1), "the broker's next heartbeat applies the pause to the partitions");
        List<String> fresh = new ArrayList<>();
        List<String> withChunk;
        try {
            for (int i = 0; i < 3; i++) {
                fresh.add(createPin(b, reader.board, "during the outage " + i));
            }
            eventually(() -> pools.top(reader.id, FeedSource.FOLLOWING, 100).await().atMost(WAIT).size() >= 3);
            withChunk = reader.page(null);
            assertTrue(withChunk.containsAll(fresh), "the new chunk is shown");
            LocalStack.run("kill", "hbase-primary");
        } finally {
            admin.as().body(Map.of("unlimited", true)).patch("/v1/queues/" + FeedJobs.PERSIST).then().statusCode(200);
        }
        try {
            for (int i = 0; i < 5; i++) {
                assertEquals(shown, reader.page(null), "the feed as replicated before the outage, from the standby");
            }
        } finally {
            LocalStack.run("start", "hbase-primary");
        }
        eventually(() -> rows(HBaseRole.MATERIALIZED_PRIMARY, reader.id).size() == PINS + fresh.size());
        eventually(() -> rows(HBaseRole.MATERIALIZED_STANDBY, reader.id)
                .equals(rows(HBaseRole.MATERIALIZED_PRIMARY, reader.id)));
        // the chunk, persisted, now heads the materialized feed: the first 20 of what that visit showed
        eventually(() -> reader.page(null).equals(withChunk.subList(0, 20)));
        eventually(this::everyPoolRegionServes);
    }

    /** After a crash the regions come back one by one: reads of 200 users' pools cover all 16 regions. */
    private boolean everyPoolRegionServes() {
        for (long user = 1; user <= 200; user++) {
            pools.top(user, FeedSource.FOLLOWING, 1).await().atMost(Duration.ofSeconds(5));
        }
        return true;
    }

    /** A user following an author with PINS pins, all shown once (materialized) and gone from the pools. */
    private Reader readerWithAFeed() throws Exception {
        TestUser a = newUser();
        TestUser b = newUser();
        String board = createBoard(b, "failover");
        a.as().put("/v1/me/following/users/" + b.id()).then().statusCode(200);
        for (int i = 0; i < PINS; i++) {
            createPin(b, board, "failover " + i);
        }
        Reader reader = new Reader(a, b, board);
        eventually(() -> pools.top(reader.id, FeedSource.FOLLOWING, 100).await().atMost(WAIT).size() == PINS);
        // visits until everything was shown (each holds back 20% of what is left), each chunk persisted before the next
        int shown = 0;
        for (int visit = 0;
                visit < 20
                        && !pools.top(reader.id, FeedSource.FOLLOWING, 100)
                                .await()
                                .atMost(WAIT)
                                .isEmpty();
                visit++) {
            reader.page(null);
            int expected = shown += reader.fresh;
            eventually(() -> pins(HBaseRole.MATERIALIZED_PRIMARY, reader.id) == expected
                    && pools.top(reader.id, FeedSource.FOLLOWING, 100).await().atMost(WAIT).size() == PINS - expected);
        }
        assertTrue(
                pools.top(reader.id, FeedSource.FOLLOWING, 100)
                        .await()
                        .atMost(WAIT)
                        .isEmpty(),
                "everything was shown");
        eventually(() -> rows(HBaseRole.MATERIALIZED_STANDBY, reader.id).size() == PINS);
        return reader;
    }

    private final class Reader {
        final TestUser user;
        final TestUser author;
        final String board;
        final long id;
        String cursor;
        int fresh;

        Reader(TestUser user, TestUser author, String board) {
            this.user = user;
            this.author = author;
            this.board = board;
            this.id = Long.parseLong(user.id());
        }

        List<String> page(String after) {
            var request = user.as().queryParam("limit", 20);
            if (after != null) {
                request.queryParam("cursor", after);
            }
            JsonPath page = request.get("/v1/me/home-feed").then().statusCode(200).extract().jsonPath();
            cursor = page.getString("nextCursor");
            fresh = (int) page.getList("items.fresh", Boolean.class).stream().filter(Boolean::booleanValue).count();
            return page.getList("items.pin.id");
        }
    }

    private double standbyWins() {
        return count("hedged_standby_won") + count("failover") + count("standby_only");
    }

    private double primaryReads() {
        return count("primary");
    }

    private double count(String outcome) {
        var counter = registry.find("pinion.hedge.reads")
                .tags("name", "materialized_feed", "outcome", outcome)
                .counter();
        return counter == null ? 0 : counter.count();
    }

    /** How many distinct pins the user's materialized feed holds on that cluster. */
    private long pins(HBaseRole role, long user) {
        return results(role, user).stream().map(result -> FeedEntry.of(result.value()).pin()).distinct().count();
    }

    private List<String> rows(HBaseRole role, long user) {
        List<String> rows = new ArrayList<>();
        for (Result result : results(role, user)) {
            rows.add(Bytes.toStringBinary(result.getRow()) + "=" + Bytes.toStringBinary(result.value()));
        }
        return rows;
    }

    private List<Result> results(HBaseRole role, long user) {
        // the feed's entries only, not the chunk-size row a visit without a chunk leaves
        Scan scan = new Scan().setStartStopRowForPrefixScan(MaterializedKey.prefix(user))
                .addColumn(FeedTables.MATERIALIZED_FAMILY, MaterializedFeed.COLUMN);
        return tables.materialized(role).chain(table -> HBaseCalls.uni(() -> table.scanAll(scan))).await().atMost(WAIT);
    }

    /** Like {@link Eventually#within}, also while the condition still throws (a cluster coming back). */
    private static void eventually(BooleanSupplier condition) throws InterruptedException {
        Eventually.within(60000, () -> {
            try {
                return condition.getAsBoolean();
            } catch (RuntimeException | AssertionError notYet) {
                return false;
            }
        });
    }
}
