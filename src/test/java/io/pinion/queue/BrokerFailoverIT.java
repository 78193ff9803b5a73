package io.pinion.queue;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;

import io.pinion.Wait;
import io.pinion.stack.LocalStack;
import io.pinion.stack.PackagedService;
import io.restassured.http.ContentType;

/**
 * Three packaged instances, one cluster in ZooKeeper, draining 45,000 jobs of a six-partition queue (workers dequeue
 * 100 and ack them through every instance); one instance is SIGKILLed mid-drain. Its partitions move to the other two
 * once ZooKeeper expires its session, within 2 s of that; every job succeeds; and the brokers' own records of which
 * partition they served when show no partition served by two brokers at once.
 */
@Tag("fault")
class BrokerFailoverIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int JOBS = 45_000;
    private static final int PARTITIONS = 6;
    private static final long SESSION_MS = 4_000;
    private static final String ROOT = "/pinion-it-" + UUID.randomUUID();
    private static final List<PackagedService> INSTANCES = List.of(instance(18191, "a"), instance(18193, "b"),
            instance(18195, "c"));

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private static PackagedService instance(int port, String name) {
        return new PackagedService(port, "broker-failover-" + name + ".log", "-Dpinion.zookeeper.root=" + ROOT,
                "-Dpinion.queue.broker-session-timeout=" + SESSION_MS + "ms");
    }

    @Test
    void aKilledBrokersPartitionsMoveOnceAndEveryJobSucceeds() throws Exception {
        LocalStack.run("up");
        PackagedService first = INSTANCES.get(0);
        PackagedService victim = INSTANCES.get(2);
        ExecutorService threads = Executors.newCachedThreadPool();
        AtomicBoolean running = new AtomicBoolean(true);
        try {
            PackagedService.startAll(INSTANCES);
            String admin = first.admin();
            String queue = Queues.uniqueName("failover");
            given().contentType(ContentType.JSON).header("Authorization", "Bearer " + admin)
                    .body(Map.of("name", queue, "partitions", PARTITIONS, "leaseMs", 3000, "maxAttempts", 100,
                            "retry", Map.of("kind", "fixed", "delayMs", 0)))
                    .post(first.base() + "/v1/queues").then().statusCode(201);
            Map<String, String> owners = awaitOwners(first, admin, queue, 3, 30_000);

            long enqueueStarted = System.nanoTime();
            for (int batch = 0; batch < JOBS / 1000; batch++) {
                StringBuilder jobs = new StringBuilder("{\"jobs\":[");
                for (int i = 0; i < 1000; i++) {
                    jobs.append(i == 0 ? "" : ",").append("{\"body\":\"job-").append(batch * 1000 + i).append("\"}");
                }
                given().contentType(ContentType.JSON).header("Authorization", "Bearer " + admin)
                        .body(jobs.append("]}").toString())
                        .post(INSTANCES.get(batch % 3).base() + "/v1/queues/" + queue + "/jobs").then().statusCode(201);
            }
            long enqueueMs = (System.nanoTime() - enqueueStarted) / 1_000_000;

            AtomicInteger acked = new AtomicInteger();
            long drainStarted = System.nanoTime();
            for (PackagedService instance : INSTANCES) {
                for (int i = 0; i < 2; i++) {
                    threads.submit(() -> work(instance, admin, queue, running, acked));
                }
            }
            Wait.within(120_000 - (System.nanoTime() - drainStarted) / 1_000_000, () -> acked.get() >= JOBS / 3,
                    () -> "a third drained (" + acked + " acked)");
            List<Tenure> atKill = tenures(victim, admin);
            String victimId = localId(victim, admin);
            long killedAt = System.currentTimeMillis();
            victim.kill();
            // what the victim served when it died, it served until then
            List<Tenure> records = new ArrayList<>(atKill.stream().map(tenure -> tenure.until() != null ? tenure
                    : new Tenure(tenure.broker(), tenure.partition(), tenure.from(), killedAt)).toList());
            int ackedAtKill = acked.get();

            // the victim's member znode goes when its session expires; its partitions follow (measured to 20 ms)
            long[] goneAt = {0};
            long[] movedAt = {0};
            AtomicReference<Map<String, String>> owned = new AtomicReference<>(owners);
            Wait.within(SESSION_MS + 20_000 - (System.currentTimeMillis() - killedAt), Duration.ofMillis(20), () -> {
                List<Map<String, Object>> brokers = brokers(first, admin);
                if (goneAt[0] == 0 && brokers.stream().noneMatch(broker -> victimId.equals(broker.get("id")))) {
                    goneAt[0] = System.currentTimeMillis();
                }
                owned.set(owners(brokers, queue));
                if (goneAt[0] != 0 && owned.get().size() == PARTITIONS && !owned.get().containsValue(victimId)) {
                    movedAt[0] = System.currentTimeMillis();
                }
                return movedAt[0] != 0;
            }, () -> "partitions moved: " + owned.get());

            AtomicReference<Map<String, Long>> counts = new AtomicReference<>();
            Wait.within(240_000 - (System.nanoTime() - drainStarted) / 1_000_000, () -> {
                counts.set(counts(first, admin, queue));
                return counts.get().getOrDefault("SUCCEEDED", 0L) == JOBS;
            }, () -> "drained: " + counts.get());
            assertEquals(0L, counts.get().getOrDefault("PENDING", 0L) + counts.get().getOrDefault("RUNNING", 0L)
                    + counts.get().getOrDefault("FAILED", 0L), "nothing left: " + counts.get());
            long drainMs = (System.nanoTime() - drainStarted) / 1_000_000;
            running.set(false);

            for (PackagedService survivor : INSTANCES.subList(0, 2)) {
                records.addAll(tenures(survivor, admin));
            }
            List<String> overlaps = overlaps(records);
            System.out.printf(
                    "Three brokers drained %d jobs (enqueued in %d ms) in %d ms; one SIGKILLed after %d acks: its"
                        + " member left %d ms after the kill (session %d ms), its partitions were served elsewhere %d"
                        + " ms after that; %d tenures on record, %d overlaps%n",
                    JOBS,
                    enqueueMs,
                    drainMs,
                    ackedAtKill,
                    goneAt[0] - killedAt,
                    SESSION_MS,
                    movedAt[0] - goneAt[0],
                    records.size(),
                    overlaps.size());
            assertTrue(movedAt[0] - goneAt[0] <= 2_000, "partitions moved within 2 s of the member leaving: "
                    + (movedAt[0] - goneAt[0]));
            // the ensemble expires sessions on its tick (1 s in the local stack)
            assertTrue(goneAt[0] - killedAt <= SESSION_MS + 3_000,
                    "the dead member left within its session timeout + 3 s");
            assertEquals(List.of(), overlaps, "no partition served by two brokers at once");
        } finally {
            running.set(false);
            threads.shutdownNow();
            for (PackagedService instance : INSTANCES) {
                instance.kill();
            }
        }
    }

    /** One partition served by one broker from {@code from} until {@code until} (epoch ms; null: still). */
    private record Tenure(String broker, String partition, long from, Long until) {
    }

    /** Pairs of records in which two brokers served one partition at once. */
    private static List<String> overlaps(List<Tenure> records) {
        Map<String, List<Tenure>> byPartition = new HashMap<>();
        records.forEach(tenure -> byPartition
                .computeIfAbsent(tenure.partition(), key -> new ArrayList<>())
                .add(tenure));
        List<String> overlaps = new ArrayList<>();
        byPartition.forEach((partition, tenures) -> {
            for (int i = 0; i < tenures.size(); i++) {
                for (int j = i + 1; j < tenures.size(); j++) {
                    Tenure a = tenures.get(i);
                    Tenure b = tenures.get(j);
                    long aEnd = a.until() == null ? Long.MAX_VALUE : a.until();
                    long bEnd = b.until() == null ? Long.MAX_VALUE : b.until();
                    if (!a.broker().equals(b.broker()) && a.from() < bEnd && b.from() < aEnd) {
                        overlaps.add(a + " / " + b);
                    }
                }
            }
        });
        return overlaps;
    }

    /** Waits until {@code brokers} brokers serve every partition of the queue; returns partition → broker. */
    private static Map<String, String> awaitOwners(PackagedService instance, String admin, String queue, int brokers,
            long maxMs) throws InterruptedException {
        AtomicReference<Map<String, String>> owners = new AtomicReference<>();
        Wait.within(maxMs, () -> {
            owners.set(owners(brokers(instance, admin), queue));
            return owners.get().size() == PARTITIONS && owners.get().values().stream().distinct().count() == brokers;
        }, () -> "the partitions spread over " + brokers + " brokers: " + owners.get());
        return owners.get();
    }

    private static List<Map<String, Object>> brokers(PackagedService instance, String admin) {
        return given().header("Authorization", "Bearer " + admin).get(instance.base() + "/v1/admin/brokers")
                .then().statusCode(200).extract().jsonPath().getList("$");
    }

    private static Map<String, String> owners(List<Map<String, Object>> brokers, String queue) {
        Map<String, String> owners = new HashMap<>();
        for (Map<String, Object> broker : brokers) {
            for (Object partition : (List<?>) broker.get("partitions")) {
                if (String.valueOf(partition).startsWith(queue + "/")) {
                    owners.put(String.valueOf(partition), String.valueOf(broker.get("id")));
                }
            }
        }
        return owners;
    }

    private static String localId(PackagedService instance, String admin) {
        return given().header("Authorization", "Bearer " + admin).get(instance.base() + "/v1/admin/brokers/local")
                .then().statusCode(200).extract().path("id");
    }

    private static List<Tenure> tenures(PackagedService instance, String admin) {
        io.restassured.path.json.JsonPath local = given().header("Authorization", "Bearer " + admin)
                .get(instance.base() + "/v1/admin/brokers/local").then().statusCode(200).extract().jsonPath();
        String id = local.getString("id");
        List<Tenure> tenures = new ArrayList<>();
        for (Map<String, Object> tenure : local.<Map<String, Object>>getList("tenures")) {
            Object until = tenure.get("until");
            tenures.add(new Tenure(id, String.valueOf(tenure.get("partition")),
                    Instant.parse(String.valueOf(tenure.get("from"))).toEpochMilli(),
                    until == null ? null : Instant.parse(String.valueOf(until)).toEpochMilli()));
        }
        return tenures;
    }

    private static Map<String, Long> counts(PackagedService instance, String admin, String queue) {
        Map<String, Object> counts = given().header("Authorization", "Bearer " + admin)
                .get(instance.base() + "/v1/queues/" + queue + "/stats")
                .then()
                .statusCode(200)
                .extract()
                .path("counts");
        Map<String, Long> result = new HashMap<>();
        counts.forEach((state, count) -> result.put(state, ((Number) count).longValue()));
        return result;
    }

    /** Dequeues up to 100 jobs and acks them, until stopped or the instance is gone. */
    private void work(
            PackagedService instance, String admin, String queue, AtomicBoolean running, AtomicInteger acked) {
        while (running.get()) {
            try {
                HttpResponse<String> response = post(instance, admin, "/v1/queues/" + queue + "/dequeue",
                        "{\"max\":100,\"waitMs\":500}");
                if (response.statusCode() != 200) {
                    continue;
                }
                JsonNode items = JSON.readTree(response.body()).path("items");
                if (items.isEmpty()) {
                    continue;
                }
                ArrayNode acks = JSON.createArrayNode();
                for (JsonNode job : items) {
                    acks.addObject().put("id", job.path("id").asText())
                            .put("leaseToken", job.path("leaseToken").asText()).put("outcome", "success");
                }
                HttpResponse<String> result = post(
                        instance,
                        admin,
                        "/v1/jobs/ack",
                        JSON.createObjectNode().set("acks", acks).toString());
                if (result.statusCode() == 200) {
                    for (JsonNode outcome : JSON.readTree(result.body()).path("items")) {
                        if ("acked".equals(outcome.path("result").asText())) {
                            acked.incrementAndGet();
                        }
                    }
                }
            } catch (java.io.IOException e) {
                return; // the instance is gone
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private HttpResponse<String> post(PackagedService instance, String token, String path, String body)
            throws java.io.IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(instance.base() + path)).timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json").header("Authorization", "Bearer " + token)
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
