package io.pinion.feed;

import static io.pinion.TestApi.createBoard;
import static io.pinion.TestApi.createPin;
import static io.pinion.TestApi.newUser;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.BooleanSupplier;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.pinion.TestApi.TestUser;
import io.pinion.feed.store.MaterializedFeed;
import io.pinion.feed.store.MaterializedWriter;
import io.pinion.feed.store.PoolStore;
import io.pinion.stack.StackTest;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

/**
 * A cursor walk does not end at the materialized feed's 1,000 entries: older pins of what the user follows go on,
 * newest first, and the whole walk has no duplicate and no gap: the pins still waiting in the pools are walked at
 * their places and leave the pools.
 */
@QuarkusTest
@StackTest
class OlderPagesTest {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final int PINS = 1_150;

    @Inject
    PoolStore pools;
    @Inject
    MaterializedFeed materialized;
    @Inject
    MaterializedWriter writer;
    @Inject
    FeedConfig config;

    @Test
    void aCursorWalkGoesPastTheMaterializedFeedWithoutDuplicatesOrGaps() throws Exception {
        TestUser author = newUser();
        TestUser reader = newUser();
        String board = createBoard(author, "a long history");
        ExecutorService threads = Executors.newFixedThreadPool(8);
        List<Future<String>> created = new ArrayList<>();
        for (int i = 0; i < PINS; i++) {
            int n = i;
            created.add(threads.submit(() -> createPin(author, board, "pin " + n)));
        }
        for (Future<String> pin : created) {
            pin.get();
        }
        threads.shutdown();
        List<Long> boardOrder = boardOrder(author, board);
        assertEquals(PINS, boardOrder.size());

        long user = Long.parseLong(reader.id());
        reader.as().put("/v1/me/following/users/" + author.id()).then().statusCode(200);
        eventually(() -> pooled(user).size() == config.backfill());
        // the reader saw 1,000 of the pins on earlier visits: 10 chunks of 100, behind the 50 pooled newest ones
        long chunkTime = System.currentTimeMillis();
        List<Long> seen = boardOrder.subList(config.backfill(), config.backfill() + config.materializedMax());
        for (int chunk = 9; chunk >= 0; chunk--) {
            List<FeedEntry> entries = new ArrayList<>();
            for (long pin : seen.subList(chunk * 100, chunk * 100 + 100)) {
                entries.add(new FeedEntry(
                        pin, FeedSource.FOLLOWING, 0, Long.parseLong(author.id()), Long.parseLong(board)));
            }
            writer.write(user, chunkTime + 9 - chunk, entries).await().atMost(WAIT);
        }

        List<String> walk = new ArrayList<>();
        JsonPath page = feed(reader, null);
        walk.addAll(page.getList("items.pin.id"));
        int fresh = page.getList("items.findAll { it.fresh }").size();
        assertTrue(fresh > 0, "the first page brings a chunk from the pools");
        eventually(() -> pooled(user).size() == config.backfill() - fresh
                && materialized.all(user).await().atMost(WAIT).size() == config.materializedMax() + fresh);
        String cursor = page.getString("nextCursor");
        int pages = 1;
        while (cursor != null) {
            page = feed(reader, cursor);
            walk.addAll(page.getList("items.pin.id"));
            cursor = page.getString("nextCursor");
            assertTrue(++pages < 100, "the walk ends");
        }

        assertEquals(walk.size(), new HashSet<>(walk).size(), "no pin twice");
        assertTrue(walk.size() > config.materializedMax(), "past the materialized feed: " + walk.size() + " entries");
        Set<Long> covered = new HashSet<>();
        walk.forEach(id -> covered.add(Long.parseLong(id)));
        assertEquals(new HashSet<>(boardOrder), covered,
                "no gap: every pin was walked, the pooled ones not in the chunk among the older pins");
        eventually(() -> pooled(user).isEmpty());
        List<Long> oldest = boardOrder.subList(PINS - 100, PINS);
        assertEquals(oldest, walk.subList(walk.size() - 100, walk.size()).stream().map(Long::parseLong).toList(),
                "the walk ends with the oldest pins, newest first");
    }

    private static List<Long> boardOrder(TestUser author, String board) {
        List<Long> order = new ArrayList<>();
        String cursor = null;
        do {
            var request = author.as().queryParam("limit", 100);
            if (cursor != null) {
                request = request.queryParam("cursor", cursor);
            }
            JsonPath page = request.get("/v1/boards/" + board + "/pins").then().statusCode(200).extract().jsonPath();
            page.getList("items.id", String.class).forEach(id -> order.add(Long.parseLong(id)));
            cursor = page.getString("nextCursor");
        } while (cursor != null);
        return order;
    }

    private List<Long> pooled(long user) {
        return pools.top(user, FeedSource.FOLLOWING, 1000).await().atMost(WAIT).stream()
                .map(e -> e.key().pin())
                .toList();
    }

    private static JsonPath feed(TestUser user, String cursor) {
        var request = user.as().queryParam("limit", 100);
        if (cursor != null) {
            request = request.queryParam("cursor", cursor);
        }
        return request.get("/v1/me/home-feed").then().statusCode(200).extract().jsonPath();
    }

    private static void eventually(BooleanSupplier condition) throws InterruptedException {
        Eventually.within(Eventually.JOBS_MS, condition);
    }
}
