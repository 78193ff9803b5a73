package io.pinion.queue;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
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
 * The service is killed (SIGKILL) mid-drain: workers are draining a backlog of 6,000 jobs (dequeue 100, ack them)
 * while enqueuers add single jobs (group-committed, some written already leased to the instance's own broker) when
 * the process dies, with jobs in its buffers, leases in the workers' hands and acks and enqueues in flight. After a
 * restart every job whose enqueue was acknowledged is delivered and acked (the jobs that were leased to the dead broker
 * come back when their lease lapses), and no job whose ack was acknowledged runs again. Runs the packaged service as a
 * separate process (failsafe, after {@code package}).
 */
@Tag("fault")
class QueueCrashIT {

    private static final PackagedService SERVICE = new PackagedService(18183, "queue-crash-it.log");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int ENQUEUERS = 4;
    private static final int WORKERS = 2;
    private static final int BACKLOG = 6_000;
    private static final int SINGLES = 100;
    /** Jobs one worker dequeues and acks at a time. */
    private static final int DEQUEUE_MAX = 100;

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void noAcknowledgedJobOrAckIsLostWhenTheServiceDiesMidDrain() throws Exception {
        LocalStack.run("up");
        SERVICE.start();
        try {
            String admin = SERVICE.admin();
            String queue = Queues.uniqueName("crash");
            given().contentType(ContentType.JSON).header("Authorization", "Bearer " + admin)
                    .body(Map.of("name", queue, "partitions", 4, "leaseMs", 3000, "maxAttempts", 100,
                            "retry", Map.of("kind", "fixed", "delayMs", 0)))
                    .post(SERVICE.base() + "/v1/queues").then().statusCode(201);
            ownsEveryPartition(admin, queue);

            Set<String> enqueued = ConcurrentHashMap.newKeySet();
            Set<String> ackedBeforeKill = ConcurrentHashMap.newKeySet();
            Map<String, Integer> deliveriesAfter = new ConcurrentHashMap<>();
            Set<String> ackedAfter = ConcurrentHashMap.newKeySet();

            // a backlog to drain, then single enqueues beside the drain
            long started = System.nanoTime();
            for (int batch = 0; batch < BACKLOG / 1000; batch++) {
                StringBuilder jobs = new StringBuilder("{\"jobs\":[");
                for (int i = 0; i < 1000; i++) {
                    jobs.append(i == 0 ? "" : ",")
                            .append("{\"body\":\"backlog-")
                            .append(batch * 1000 + i)
                            .append("\"}");
                }
                enqueued.addAll(given().contentType(ContentType.JSON).header("Authorization", "Bearer " + admin)
                        .body(jobs.append("]}").toString()).post(SERVICE.base() + "/v1/queues/" + queue + "/jobs")
                        .then().statusCode(201).extract().jsonPath().getList("items.id", String.class));
            }
            Load before = new Load(admin, queue);
            before.enqueue(enqueued);
            before.work(ackedBeforeKill, new ConcurrentHashMap<>());
            Wait.within(120_000, () -> enqueued.size() >= BACKLOG + SINGLES && ackedBeforeKill.size() >= BACKLOG / 2,
                    () -> "the load ran before the kill: " + enqueued.size() + " enqueued, " + ackedBeforeKill.size()
                            + " acked");
            long loadMs = (System.nanoTime() - started) / 1_000_000;
            SERVICE.kill();
            before.stop();
            Set<String> acknowledgedEnqueues = new HashSet<>(enqueued);
            Set<String> acknowledgedAcks = new HashSet<>(ackedBeforeKill);

            SERVICE.start();
            Load after = new Load(admin, queue);
            after.work(ackedAfter, deliveriesAfter);
            Set<String> lost = new HashSet<>(acknowledgedEnqueues);
            lost.removeAll(acknowledgedAcks);
            Set<String> ackAnswerLost = new HashSet<>();
            // asserted below, after the load stops and the counts are printed
            Wait.upTo(90_000, () -> {
                lost.removeAll(ackedAfter);
                if (lost.size() <= WORKERS * DEQUEUE_MAX) {
                    // an ack that committed while the service died (each worker may have had one batch in flight):
                    // done, though its worker never heard so
                    for (String id : Set.copyOf(lost)) {
                        if (!deliveriesAfter.containsKey(id) && "SUCCEEDED".equals(state(admin, id))) {
                            ackAnswerLost.add(id);
                            lost.remove(id);
                        }
                    }
                }
                return lost.isEmpty();
            });
            after.stop();
            Set<String> ranAgain = new HashSet<>(acknowledgedAcks);
            ranAgain.retainAll(deliveriesAfter.keySet());
            System.out.printf(
                    "Queue service killed mid-drain after %d ms of load: %d enqueues and %d acks acknowledged before"
                        + " the kill, %d jobs delivered after the restart, %d acked as the service died (answer lost),"
                        + " %d acknowledged jobs lost, %d acked jobs delivered again%n",
                    loadMs,
                    acknowledgedEnqueues.size(),
                    acknowledgedAcks.size(),
                    deliveriesAfter.size(),
                    ackAnswerLost.size(),
                    lost.size(),
                    ranAgain.size());
            assertEquals(Set.of(), lost, "every job whose enqueue was acknowledged is delivered and acked");
            assertEquals(Set.of(), ranAgain, "no job whose ack was acknowledged runs again");
            for (String id : acknowledgedAcks.stream().limit(50).toList()) {
                assertEquals("SUCCEEDED", state(admin, id), "job " + id + " stays acked");
            }
        } finally {
            SERVICE.kill();
        }
    }

    /**
     * Waits until this instance's broker owns all four partitions of the queue: the workers dequeue from this
     * instance only, so another live broker on the stack (an instance some other test left running) would hold
     * jobs they never see.
     */
    private static void ownsEveryPartition(String admin, String queue) throws InterruptedException {
        String mine = "-" + SERVICE.pid() + "-";
        AtomicReference<List<Map<String, Object>>> brokers = new AtomicReference<>(List.of());
        Wait.within(30_000, () -> {
            brokers.set(given().header("Authorization", "Bearer " + admin).get(SERVICE.base() + "/v1/admin/brokers")
                    .then().statusCode(200).extract().jsonPath().getList("$"));
            long owned = brokers.get().stream().filter(broker -> String.valueOf(broker.get("id")).contains(mine))
                    .flatMap(broker -> ((List<?>) broker.get("partitions")).stream())
                    .filter(partition -> String.valueOf(partition).startsWith(queue + "/")).count();
            return owned == 4;
        }, () -> "the instance under test (pid " + SERVICE.pid() + ") owns every partition of " + queue
                + " (else another dequeue broker runs on the stack: " + brokers.get() + ")");
    }

    /** The job's state as stored, or the HTTP status when it cannot be read (404: no such job). */
    private static String state(String token, String id) {
        io.restassured.response.Response job = given().header("Authorization", "Bearer " + token)
                .get(SERVICE.base() + "/v1/jobs/" + id);
        return job.statusCode() == 200 ? job.jsonPath().getString("state") : "HTTP " + job.statusCode();
    }

    /** Enqueuers (one job per request) and workers (dequeue up to 100, ack them) until stopped. */
    private final class Load {
        private final String token;
        private final String queue;
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final ExecutorService threads = Executors.newCachedThreadPool();
        private final AtomicInteger serial = new AtomicInteger();

        Load(String token, String queue) {
            this.token = token;
            this.queue = queue;
        }

        void enqueue(Set<String> acknowledged) {
            for (int i = 0; i < ENQUEUERS; i++) {
                threads.submit(() -> {
                    while (running.get()) {
                        HttpResponse<String> response = post("/v1/queues/" + queue + "/jobs",
                                "{\"body\":\"job-" + serial.incrementAndGet() + "\"}");
                        if (response != null && response.statusCode() == 201) {
                            acknowledged.add(read(response).path("id").asText());
                        }
                    }
                });
            }
        }

        void work(Set<String> acked, Map<String, Integer> deliveries) {
            for (int i = 0; i < WORKERS; i++) {
                threads.submit(() -> {
                    while (running.get()) {
                        HttpResponse<String> response = post("/v1/queues/" + queue + "/dequeue",
                                "{\"max\":" + DEQUEUE_MAX + ",\"waitMs\":500}");
                        if (response == null || response.statusCode() != 200) {
                            continue;
                        }
                        JsonNode items = read(response).path("items");
                        if (items.isEmpty()) {
                            continue;
                        }
                        ArrayNode acks = JSON.createArrayNode();
                        for (JsonNode job : items) {
                            deliveries.merge(job.path("id").asText(), 1, Integer::sum);
                            acks.addObject().put("id", job.path("id").asText())
                                    .put("leaseToken", job.path("leaseToken").asText()).put("outcome", "success");
                        }
                        HttpResponse<String> result = post("/v1/jobs/ack",
                                JSON.createObjectNode().set("acks", acks).toString());
                        if (result != null && result.statusCode() == 200) {
                            for (JsonNode outcome : read(result).path("items")) {
                                if ("acked".equals(outcome.path("result").asText())) {
                                    acked.add(outcome.path("id").asText());
                                }
                            }
                        }
                    }
                });
            }
        }

        private JsonNode read(HttpResponse<String> response) {
            try {
                return JSON.readTree(response.body());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        private HttpResponse<String> post(String path, String body) {
            try {
                return http.send(HttpRequest.newBuilder(URI.create(SERVICE.base() + path))
                        .timeout(Duration.ofSeconds(10)).header("Content-Type", "application/json")
                        .header("Authorization", "Bearer " + token)
                        .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
            } catch (Exception e) {
                return null;
            }
        }

        void stop() throws InterruptedException {
            running.set(false);
            threads.shutdown();
            assertTrue(threads.awaitTermination(30, TimeUnit.SECONDS), "the load stops");
        }
    }
}
