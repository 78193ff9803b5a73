package io.pinion.feed;

import static io.pinion.TestApi.createBoard;
import static io.pinion.TestApi.newUser;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.micrometer.core.instrument.MeterRegistry;
import io.pinion.Json;
import io.pinion.TestApi;
import io.pinion.TestApi.TestUser;
import io.pinion.feed.funnel.FunnelFlusher;
import io.pinion.feed.store.FeedKeys;
import io.pinion.feed.store.FeedStates;
import io.pinion.graph.GraphRedis;
import io.pinion.graph.VirtualShards;
import io.pinion.id.ObjectType;
import io.pinion.id.PinionId;
import io.pinion.stack.StackTest;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Request;

/**
 * The funnel of one pin, author and board holds the global funnel's numbers, split by entity. The traffic of
 * {@link FunnelBalanceTest} in small (pull threshold 3): a pulled author with four followers, a pushed author with
 * three (one inactive), a pin each, two visits; then every series of the global funnel's delta equals the sum of the
 * two authors' funnels, of the two pins' and of the two boards'. Counts in the last minute of a day and the first of
 * the next land in their own buckets and hashes; only the author reads {@code /v1/me/pins/{id}/reach}.
 */
@QuarkusTest
@StackTest
@TestProfile(DeliveryProfile.class)
class EntityFunnelTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final List<String> QUEUES = Eventually.FEED_QUEUES;

    @Inject
    MeterRegistry registry;
    @Inject
    FeedStates states;
    @Inject
    FunnelFlusher flusher;
    @Inject
    FunnelTally tally;
    @Inject
    GraphRedis redis;
    @Inject
    VirtualShards shards;

    @Test
    void anEntitysFunnelHoldsTheGlobalFunnelsCountsForItsTraffic() throws Exception {
        TestUser admin = TestApi.admin();
        TestUser heavy = newUser();
        TestUser author = newUser();
        TestUser f1 = newUser();
        TestUser f2 = newUser();
        TestUser away = newUser();
        TestUser f4 = newUser();
        String heavyBoard = createBoard(heavy, "pulled");
        String authorBoard = createBoard(author, "pushed");
        for (TestUser fan : List.of(f1, f2, away)) {
            follow(fan, author);
        }
        for (TestUser fan : List.of(f1, f2, away, f4)) {
            follow(fan, heavy);
        }
        states.recordVisits(Map.of(
                        Long.parseLong(away.id()), System.currentTimeMillis() - Duration.ofDays(30).toMillis()))
                .await().atMost(WAIT);
        Eventually.idle(admin, QUEUES);
        flusher.flush().await().atMost(WAIT);
        Instant from = Instant.now().truncatedTo(ChronoUnit.MINUTES);
        FunnelCounts before = FunnelCounts.of(registry);

        String pulledPin = pin(heavy, heavyBoard);
        String pushedPin = pin(author, authorBoard);
        Eventually.idle(admin, QUEUES);
        for (TestUser fan : List.of(f1, f2)) {
            fan.as().queryParam("limit", 25).get("/v1/me/home-feed").then().statusCode(200);
        }
        Eventually.idle(admin, QUEUES);
        FunnelCounts delta = FunnelCounts.of(registry).since(before);
        flusher.flush().await().atMost(WAIT);
        Instant to = Instant.now().plus(1, ChronoUnit.MINUTES).truncatedTo(ChronoUnit.MINUTES);

        Map<String, Long> global = delta.series();
        assertTrue(global.getOrDefault("shown|following|none", 0L) > 0, "the visits showed pins: " + global);
        assertEquals(2L, global.get("created|all|none"), global.toString());
        for (String[] pair : List.of(new String[] {"author", heavy.id(), author.id()},
                new String[] {"pin", pulledPin, pushedPin}, new String[] {"board", heavyBoard, authorBoard})) {
            Map<String, Long> summed = new TreeMap<>();
            for (String id : List.of(pair[1], pair[2])) {
                JsonNode funnel = funnel(admin, pair[0], id, from, to, "PT1M");
                assertEquals(pair[0], funnel.path("entity").asText());
                for (JsonNode line : funnel.path("lines")) {
                    long points = 0;
                    for (JsonNode point : line.path("points")) {
                        points += point.path("count").asLong();
                    }
                    assertEquals(line.path("total").asLong(), points, "a line's total is its points' sum");
                    summed.merge(line.path("stage").asText() + "|" + line.path("source").asText() + "|"
                            + line.path("reason").asText(), line.path("total").asLong(), Long::sum);
                }
                assertTrue(funnel.path("global").size() > 10, "the global series beside it");
            }
            assertEquals(global, summed, "per " + pair[0] + ": the global funnel's delta, split by " + pair[0]);
        }
        JsonNode pushed = funnel(admin, "pin", pushedPin, from, to, "PT1M");
        System.out.printf("Funnel of the pushed pin over %s..%s: %s%n", from, to, pushed.path("lines"));

        // the pushed pin: 3 followers paged, the inactive one skipped, 2 rows pushed, shown to both visitors
        JsonNode reach = author.as().get("/v1/me/pins/" + pushedPin + "/reach").then().statusCode(200).extract()
                .as(JsonNode.class);
        assertEquals(3, reach.path("followers").asLong(), reach.toString());
        assertEquals(1, reach.path("inactive").asLong(), reach.toString());
        assertEquals(2, reach.path("delivered").asLong(), reach.toString());
        assertEquals(2, reach.path("shown").asLong(), reach.toString());
        JsonNode pulledReach = heavy.as().get("/v1/me/pins/" + pulledPin + "/reach").then().statusCode(200)
                .extract().as(JsonNode.class);
        assertEquals(4, pulledReach.path("followers").asLong(), "a pulled pin reaches its 4 followers when read");
        f1.as().get("/v1/me/pins/" + pushedPin + "/reach").then().statusCode(403).body("error",
                org.hamcrest.Matchers.equalTo("not_pin_author"));
        admin.as().get("/v1/me/pins/" + pushedPin + "/reach").then().statusCode(403);
        author.as().get("/v1/me/pins/" + pulledPin + "/reach").then().statusCode(403);
        author.as().get("/v1/me/pins/not-a-pin/reach").then().statusCode(400);
        f1.as().get("/v1/admin/feed/funnel?pin=" + pushedPin).then().statusCode(403);
        admin.as().get("/v1/admin/feed/funnel?pin=" + pushedPin + "&author=" + author.id()).then().statusCode(400)
                .body("error", org.hamcrest.Matchers.equalTo("one_entity"));
        admin.as().get("/v1/admin/feed/funnel?pin=" + pushedPin + "&step=PT90S").then().statusCode(400)
                .body("error", org.hamcrest.Matchers.equalTo("invalid_step"));
        admin.as().get("/v1/admin/feed/funnel?pin=" + pushedPin + "&from=2020-01-01T00:00:00Z").then()
                .statusCode(400).body("error", org.hamcrest.Matchers.equalTo("invalid_range"));
    }

    @Test
    void countsAcrossMidnightLandInTheirOwnBucketsAndHashes() throws Exception {
        TestUser admin = TestApi.admin();
        long now = System.currentTimeMillis();
        long day = Duration.ofDays(1).toMillis();
        long midnight = now / day * day;
        if (now - midnight < Duration.ofMinutes(2).toMillis()) {
            midnight -= day;
        }
        FunnelPin pin = new FunnelPin(newPinId(), 0, 0);
        tally.add(pin, FeedFunnel.Stage.SHOWN, FeedSource.FOLLOWING, FeedFunnel.Reason.NONE, 3, midnight - 30_000);
        tally.add(pin, FeedFunnel.Stage.SHOWN, FeedSource.FOLLOWING, FeedFunnel.Reason.NONE, 5, midnight + 30_000);
        flusher.flush().await().atMost(WAIT);
        String id = Long.toString(pin.pin());

        JsonNode minutes = funnel(admin, "pin", id, Instant.ofEpochMilli(midnight - 120_000),
                Instant.ofEpochMilli(midnight + 120_000), "PT1M");
        JsonNode line = minutes.path("lines").get(0);
        assertEquals(8, line.path("total").asLong(), minutes.toString());
        assertEquals(Instant.ofEpochMilli(midnight - 60_000).toString(), line.path("points").get(0).path("at")
                .asText());
        assertEquals(3, line.path("points").get(0).path("count").asLong());
        assertEquals(Instant.ofEpochMilli(midnight).toString(), line.path("points").get(1).path("at").asText());
        assertEquals(5, line.path("points").get(1).path("count").asLong());
        JsonNode hours = funnel(admin, "pin", id, Instant.ofEpochMilli(midnight - 3_600_000),
                Instant.ofEpochMilli(midnight + 3_600_000), "PT1H");
        assertEquals(2, hours.path("lines").get(0).path("points").size(), hours.toString());
        int vs = shards.ofUser(pin.pin());
        for (long epochDay : new long[] {midnight / day - 1, midnight / day}) {
            String key = FeedKeys.funnelByMinute(vs, 'p', pin.pin(), epochDay);
            long ttl = redis.send(vs, Request.cmd(Command.TTL).arg(key)).await().atMost(WAIT).toLong();
            assertTrue(ttl > 0 && ttl <= 2 * day / 1000, key + " expires within two days: " + ttl);
        }
    }

    @Test
    void memoryPerPinPerDay() throws Exception {
        long now = System.currentTimeMillis();
        long day = Duration.ofDays(1).toMillis();
        long yesterday = (now / day - 1) * day;
        long typical = newPinId();
        long busy = newPinId();
        // a typical pin: created and pushed in one minute, then shown now and then (60 minutes of the day)
        FunnelPin pin = new FunnelPin(typical, 0, 0);
        for (FeedFunnel.Stage stage : List.of(FeedFunnel.Stage.CREATED, FeedFunnel.Stage.ROUTED,
                FeedFunnel.Stage.PAGED, FeedFunnel.Stage.PUSHED, FeedFunnel.Stage.SKIPPED)) {
            tally.add(pin, stage, FeedSource.FOLLOWING, FeedFunnel.Reason.NONE, 100, yesterday);
        }
        for (int minute = 0; minute < 60; minute++) {
            shownAndAround(pin, yesterday + minute * 24 * 60_000L);
        }
        // a busy pin: candidate, shown, persisted and consumed in every minute of the day
        FunnelPin hot = new FunnelPin(busy, 0, 0);
        for (int minute = 0; minute < 1_440; minute++) {
            shownAndAround(hot, yesterday + minute * 60_000L);
        }
        flusher.flush().await().atMost(WAIT);
        Map<String, Long> bytes = new HashMap<>();
        for (long id : new long[] {typical, busy}) {
            int vs = shards.ofUser(id);
            long minutes = memory(vs, FeedKeys.funnelByMinute(vs, 'p', id, yesterday / day));
            long hours = memory(vs, FeedKeys.funnelByHour(vs, 'p', id, monthOf(yesterday)));
            bytes.put(id == typical ? "typical" : "busy", minutes + hours);
            System.out.printf("Funnel memory of a %s pin for one day: %d bytes by minute + %d bytes by hour%n",
                    id == typical ? "typical" : "busy", minutes, hours);
        }
        assertTrue(bytes.get("typical") < 16_384, bytes.toString());
        assertTrue(bytes.get("busy") < 1_048_576, bytes.toString());
    }

    private void shownAndAround(FunnelPin pin, long at) {
        tally.add(pin, FeedFunnel.Stage.CANDIDATE, FeedSource.FOLLOWING, FeedFunnel.Reason.POOL, 7, at);
        tally.add(pin, FeedFunnel.Stage.SHOWN, FeedSource.FOLLOWING, FeedFunnel.Reason.NONE, 5, at);
        tally.add(pin, FeedFunnel.Stage.HELD_BACK, FeedSource.FOLLOWING, FeedFunnel.Reason.POOL, 2, at);
        tally.add(pin, FeedFunnel.Stage.PERSISTED, FeedSource.FOLLOWING, FeedFunnel.Reason.NONE, 5, at);
        tally.add(pin, FeedFunnel.Stage.CONSUMED, FeedSource.FOLLOWING, FeedFunnel.Reason.NONE, 5, at);
    }

    /** A pin id nobody has used: the funnel keeps counts for any id it is given. */
    private static long newPinId() {
        return PinionId.of(ThreadLocalRandom.current().nextInt(64), ObjectType.PIN,
                ThreadLocalRandom.current().nextLong(1L << 30, 1L << 34)).value();
    }

    private static long monthOf(long millis) {
        java.time.LocalDate date = java.time.LocalDate.ofEpochDay(millis / 86_400_000L);
        return (date.getYear() - 1970L) * 12 + date.getMonthValue() - 1;
    }

    private long memory(int vs, String key) {
        return redis.send(vs, Request.cmd(Command.MEMORY).arg("USAGE").arg(key)).await().atMost(WAIT).toLong();
    }

    private static JsonNode funnel(TestUser admin, String entity, String id, Instant from, Instant to, String step) {
        return Json.of(admin.as().queryParam(entity, id).queryParam("from", from.toString())
                .queryParam("to", to.toString()).queryParam("step", step)
                .get("/v1/admin/feed/funnel").then().statusCode(200).extract().response());
    }

    private static void follow(TestUser fan, TestUser author) {
        fan.as().put("/v1/me/following/users/" + author.id()).then().statusCode(200);
    }

    private static String pin(TestUser user, String board) {
        return user.as().body(Map.of("boardId", board, "description", "entity funnel", "link",
                        "https://example.com/e", "imageUrl", "https://img.example.com/e.jpg"))
                .post("/v1/pins").then().statusCode(201).extract().path("id");
    }
}
