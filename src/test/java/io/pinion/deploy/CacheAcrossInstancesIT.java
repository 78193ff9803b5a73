package io.pinion.deploy;

import static io.pinion.TestApi.createBoard;
import static io.pinion.TestApi.createPin;
import static io.pinion.TestApi.newUser;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.pinion.TestApi.TestUser;
import io.pinion.Wait;
import io.pinion.stack.LocalStack;
import io.pinion.stack.StackTest;
import io.quarkus.test.junit.QuarkusIntegrationTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;

/**
 * Two instances of the packaged app on the same stack, each with its object cache: what is written through one is
 * read through the other within 1 s (a like, a rename, a new pin's count, a delete), while the other serves its
 * reads from its cache; and the topology in ZooKeeper they share: a change made through one is in force on the
 * other within 1 s, and of two edits of one version made through both at once exactly one wins (the other gets 409).
 * The first instance is the one the test framework starts; the second is started here.
 */
@QuarkusIntegrationTest
@StackTest
@TestProfile(PackagedAppIT.PackagedApp.class)
class CacheAcrossInstancesIT {

    private static final long WITHIN_MS = 1_000;
    private static Process other;
    private static int otherPort;
    private static int otherManagementPort;

    @BeforeAll
    static void startTheOtherInstance() throws Exception {
        otherPort = freePort();
        otherManagementPort = freePort();
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        new PackagedAppIT.PackagedApp()
                .getConfigOverrides()
                .forEach((key, value) -> command.add("-D" + key + "=" + value));
        // the same cluster as the first instance: its ZooKeeper root (stack/StackResource)
        command.add("-Dpinion.zookeeper.root=" + io.pinion.stack.StackResource.root());
        command.add("-Dquarkus.http.port=" + otherPort);
        command.add("-Dquarkus.management.port=" + otherManagementPort);
        command.add("-jar");
        command.add("target/quarkus-app/quarkus-run.jar");
        Path root = LocalStack.repoRoot();
        other = new ProcessBuilder(command).directory(root.toFile())
                .redirectErrorStream(true)
                .redirectOutput(root.resolve("target/cache-other-instance.log").toFile())
                .start();
        Wait.within(120_000, () -> {
            if (cacheTrusted(otherManagementPort)) {
                return true;
            }
            assertTrue(other.isAlive(), "the second instance exited; see target/cache-other-instance.log");
            return false;
        }, "the second instance's cache in use");
    }

    @BeforeEach
    void theFirstInstanceUsesItsCache() throws InterruptedException {
        Wait.within(30_000, () -> cacheTrusted(io.pinion.TestApi.MANAGEMENT_PORT), "the first instance's cache in use");
    }

    @AfterAll
    static void stopTheOtherInstance() throws InterruptedException {
        if (other != null) {
            other.destroy();
            other.waitFor();
        }
    }

    @Test
    void aLikeOnOneInstanceIsCountedOnTheOtherWithinOneSecond() throws InterruptedException {
        TestUser author = newUser();
        TestUser fan = newUser();
        String pin = createPin(author, createBoard(author, "across"), "seen twice");
        readTwiceFromTheOther("/v1/pins/" + pin, response -> response.statusCode() == 200
                && response.jsonPath().getInt("counts.likes") == 0);

        fan.as().put("/v1/pins/" + pin + "/like").then().statusCode(200);
        seenOnTheOther("/v1/pins/" + pin, response -> response.statusCode() == 200
                && response.jsonPath().getInt("counts.likes") == 1);

        fan.as().delete("/v1/pins/" + pin + "/like").then().statusCode(200);
        seenOnTheOther("/v1/pins/" + pin, response -> response.statusCode() == 200
                && response.jsonPath().getInt("counts.likes") == 0);
    }

    @Test
    void aRenameAndANewPinOfABoardAreSeenOnTheOtherWithinOneSecond() throws InterruptedException {
        TestUser owner = newUser();
        String board = createBoard(owner, "before");
        readTwiceFromTheOther("/v1/boards/" + board, response -> response.statusCode() == 200
                && "before".equals(response.jsonPath().getString("name")));

        owner.as().body(Map.of("name", "after")).patch("/v1/boards/" + board).then().statusCode(200);
        seenOnTheOther("/v1/boards/" + board, response -> "after".equals(response.jsonPath().getString("name")));

        createPin(owner, board, "one more");
        seenOnTheOther("/v1/boards/" + board, response -> response.jsonPath().getInt("counts.pins") == 1);
    }

    @Test
    void aDeletedPinIsGoneOnTheOtherWithinOneSecond() throws InterruptedException {
        TestUser author = newUser();
        String pin = createPin(author, createBoard(author, "short-lived"), "gone soon");
        readTwiceFromTheOther("/v1/pins/" + pin, response -> response.statusCode() == 200);

        author.as().delete("/v1/pins/" + pin).then().statusCode(204);
        seenOnTheOther("/v1/pins/" + pin, response -> response.statusCode() == 404);
    }

    @Test
    void aFollowAndAnUnfollowOnOneInstanceAreSeenOnTheOtherWithinOneSecond() throws InterruptedException {
        TestUser reader = newUser();
        TestUser author = newUser();
        String check = "/v1/users/" + reader.id() + "/following/users/" + author.id();
        readTwiceFromTheOther(check, response -> response.statusCode() == 200
                && !response.jsonPath().getBoolean("following"));

        reader.as().put("/v1/me/following/users/" + author.id()).then().statusCode(200);
        seenOnTheOther(check, response -> response.jsonPath().getBoolean("following"));

        reader.as().delete("/v1/me/following/users/" + author.id()).then().statusCode(200);
        seenOnTheOther(check, response -> !response.jsonPath().getBoolean("following"));
    }

    @Test
    void aTopologyChangeThroughOneIsInForceOnTheOtherWithinOneSecondAndConcurrentEditsConflict() throws Exception {
        TestUser admin = new TestUser(null, io.pinion.stack.Operator.ADMIN, io.pinion.stack.Operator.grantedAdmin(""));
        Response current = admin.as().get("/v1/admin/topology").then().statusCode(200).extract().response();
        String original = current.asString();
        String narrowed =
                original.replaceFirst("\"openShards\"\\s*:\\s*\\[\\s*0\\s*,\\s*63\\s*]", "\"openShards\":[0,62]");
        assertTrue(!narrowed.equals(original), "the local topology opens shards 0-63: " + original);

        // a row changed under the caches (as a promoted replica may differ from the old master): after the new
        // topology version no instance serves what it cached before
        String board = renamedUnderTheCaches("before the new version", "on the new master");

        String changed = admin.as()
                .contentType(ContentType.JSON)
                .header("If-Match", current.header("ETag"))
                .body(narrowed)
                .put("/v1/admin/topology")
                .then()
                .statusCode(200)
                .extract()
                .header("ETag");
        long start = System.nanoTime();
        Wait.within(5_000, Duration.ofMillis(5), () -> changed.equals(onOther()
                .header("Authorization", "Bearer " + admin.token()).get("/v1/admin/topology").header("ETag")),
                () -> "the other instance takes version " + changed);
        long tookMs = (System.nanoTime() - start) / 1_000_000;
        System.out.printf("a topology change through one instance was in force on the other after %d ms%n", tookMs);
        assertTrue(tookMs <= WITHIN_MS, "in force on the other after " + tookMs + " ms");
        seenOnTheOther(
                "/v1/boards/" + board,
                response -> "on the new master".equals(response.jsonPath().getString("name")));

        java.util.concurrent.ExecutorService threads = java.util.concurrent.Executors.newFixedThreadPool(2);
        try {
            java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
            List<java.util.concurrent.Future<Integer>> answers = new ArrayList<>();
            for (RequestSpecification instance : List.of(given(), onOther())) {
                answers.add(threads.submit(() -> {
                    go.await();
                    return instance.header("Authorization", "Bearer " + admin.token()).contentType(ContentType.JSON)
                            .header("If-Match", changed).body(original).put("/v1/admin/topology").statusCode();
                }));
            }
            go.countDown();
            List<Integer> statuses = new ArrayList<>();
            for (java.util.concurrent.Future<Integer> answer : answers) {
                statuses.add(answer.get(30, java.util.concurrent.TimeUnit.SECONDS));
            }
            statuses.sort(Integer::compare);
            org.junit.jupiter.api.Assertions.assertEquals(List.of(200, 409), statuses, "one edit wins, one conflicts");
        } finally {
            threads.shutdownNow();
        }
        String latest = admin.as().get("/v1/admin/topology/stored").then().statusCode(200).extract().header("ETag");
        admin.as().contentType(ContentType.JSON).header("If-Match", latest).body(original).put("/v1/admin/topology")
                .then().statusCode(200);
    }

    @Test
    void rowsChangedUnderTheCachesAreServedByNoInstanceOnceTheCachesAreDropped() throws Exception {
        // what a restore does: rows replaced in MySQL, no invalidation published
        String board = renamedUnderTheCaches("as backed up", "as restored");
        Response stale = onOther().get("/v1/boards/" + board);
        assertTrue(
                "as backed up".equals(stale.jsonPath().getString("name")),
                "the other instance serves its cache: " + stale.asString());

        TestUser admin = new TestUser(null, io.pinion.stack.Operator.ADMIN, io.pinion.stack.Operator.grantedAdmin(""));
        admin.as().post("/v1/admin/caches/drop?reason=test").then().statusCode(200);
        seenOnTheOther("/v1/boards/" + board, response -> "as restored".equals(response.jsonPath().getString("name")));
        org.junit.jupiter.api.Assertions.assertEquals(
                "as restored", given().get("/v1/boards/" + board).jsonPath().getString("name"));
    }

    /**
     * A board named {@code before}, cached by the second instance, then renamed {@code after} in MySQL directly (no
     * invalidation published); its id.
     */
    private static String renamedUnderTheCaches(String before, String after) throws Exception {
        String board = createBoard(newUser(), before);
        readTwiceFromTheOther("/v1/boards/" + board, response -> before.equals(response.jsonPath().getString("name")));
        io.pinion.id.PinionId id = io.pinion.id.PinionId.parse(board);
        mysql(
                id.shard(),
                "UPDATE db" + String.format("%05d", id.shard()) + ".boards SET data = JSON_SET(data, '$.name', '"
                        + after + "') WHERE local_id = " + id.local());
        return board;
    }

    /**
     * Runs a statement on the master of the local stack holding the shard (shards 0-31 on mysql-1, 32-63 on mysql-2).
     */
    private static void mysql(int shard, String statement) throws Exception {
        Process client = new ProcessBuilder("mysql", "-h127.0.0.1", "-P" + (shard < 32 ? 33061 : 33062), "-upinion",
                "-ppinion", "-e", statement).redirectErrorStream(true).start();
        String output = new String(client.getInputStream().readAllBytes());
        org.junit.jupiter.api.Assertions.assertEquals(0, client.waitFor(), "mysql: " + output);
    }

    /** Reads through the second instance until it answers from its cache, which then holds the state asserted. */
    private static void readTwiceFromTheOther(String path, Predicate<Response> expected) {
        Response first = onOther().get(path);
        assertTrue(expected.test(first), "before the change, " + path + " on the second instance: " + first.asString());
        double hits = cacheHits(otherManagementPort);
        Response second = onOther().get(path);
        assertTrue(expected.test(second), path + " on the second instance: " + second.asString());
        assertTrue(
                cacheHits(otherManagementPort) > hits, "the second read of " + path + " did not come from the cache");
    }

    /** The change is visible through the second instance within {@link #WITHIN_MS}. */
    private static void seenOnTheOther(String path, Predicate<Response> expected) throws InterruptedException {
        long start = System.nanoTime();
        AtomicReference<Response> response = new AtomicReference<>();
        Wait.within(WITHIN_MS, Duration.ofMillis(20), () -> {
            response.set(onOther().get(path));
            return expected.test(response.get());
        }, () -> path + " changed on the other instance (still " + response.get().asString() + ")");
        long elapsedMs = (System.nanoTime() - start) / 1_000_000;
        assertTrue(elapsedMs <= WITHIN_MS, path + " took " + elapsedMs + " ms to change on the other instance");
    }

    private static RequestSpecification onOther() {
        return given().port(otherPort).contentType(ContentType.JSON);
    }

    private static boolean cacheTrusted(int managementPort) {
        try {
            return metric(managementPort, "pinion_cache_trusted ") == 1.0;
        } catch (Exception notYet) {
            return false;
        }
    }

    /** Hits of the object cache's parts together: objects, list heads and facts. */
    private static double cacheHits(int managementPort) {
        double hits = 0;
        for (String part : List.of("objects", "lists", "facts")) {
            hits += metric(managementPort, "cache_gets_total{cache=\"" + part + "\",result=\"hit\"} ");
        }
        return hits;
    }

    private static double metric(int managementPort, String prefix) {
        String text = given().port(managementPort).get("/q/metrics").asString();
        for (String line : text.split("\n")) {
            if (line.startsWith(prefix)) {
                return Double.parseDouble(line.substring(prefix.length()).trim());
            }
        }
        throw new IllegalStateException("no metric " + prefix.trim());
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
