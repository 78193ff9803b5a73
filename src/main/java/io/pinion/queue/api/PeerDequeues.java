package io.pinion.queue.api;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.core.buffer.Buffer;
import io.vertx.mutiny.core.http.HttpClient;
import io.vertx.mutiny.core.http.HttpClientResponse;

/**
 * Dequeue calls forwarded to the other instances' brokers, for a dequeue that finds nothing in this instance's
 * partitions. The forwarded call carries the caller's own credentials, so the other instance checks the caller's
 * roles and queue grants as for any call, and {@link #FORWARDED}, so it answers from its own partitions only (never
 * forwards again). An instance that does not answer in time, or answers with an error, counts as having nothing.
 */
@ApplicationScoped
public class PeerDequeues {

    /** Marks a forwarded dequeue: the instance answers from its own partitions. */
    public static final String FORWARDED = "X-Pinion-Forwarded";

    private static final Logger LOG = Logger.getLogger(PeerDequeues.class);
    /** Beyond the wait the call asked for, how long a peer may take to answer. */
    private static final long ANSWER_MS = 2_000;

    private final HttpClient client;
    private final ObjectMapper json;
    private final Map<String, Counter> outcomes;

    PeerDequeues(Vertx vertx, ObjectMapper json, MeterRegistry registry) {
        this.json = json;
        this.client = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(true).setMaxPoolSize(16)
                .setConnectTimeout(1_000).setIdleTimeout(30));
        this.outcomes = Map.of("jobs", outcome(registry, "jobs"), "empty", outcome(registry, "empty"), "failed",
                outcome(registry, "failed"));
    }

    private static Counter outcome(MeterRegistry registry, String outcome) {
        return Counter.builder("pinion.queue.forwarded.dequeues")
                .description("Dequeue calls forwarded to other instances' brokers, by what they brought back")
                .tag("outcome", outcome).register(registry);
    }

    /** Asks the peers in order without waiting, and answers with the first jobs found (none: empty). */
    Uni<List<LeaseView>> firstWithJobs(List<String> peers, String queue, int max, String authorization) {
        return ask(peers, 0, queue, max, authorization);
    }

    private Uni<List<LeaseView>> ask(List<String> peers, int index, String queue, int max, String authorization) {
        if (index >= peers.size()) {
            return Uni.createFrom().item(List.of());
        }
        return dequeue(peers.get(index), queue, max, 0, authorization)
                .chain(jobs -> jobs.isEmpty() ? ask(peers, index + 1, queue, max, authorization)
                        : Uni.createFrom().item(jobs));
    }

    /** One dequeue on the peer at {@code address} ({@code host:port}), waiting up to {@code waitMs} there. */
    Uni<List<LeaseView>> dequeue(String address, String queue, int max, long waitMs, String authorization) {
        int colon = address.lastIndexOf(':');
        RequestOptions options = new RequestOptions().setMethod(HttpMethod.POST)
                .setHost(address.substring(0, colon)).setPort(Integer.parseInt(address.substring(colon + 1)))
                .setURI("/v1/queues/" + URLEncoder.encode(queue, StandardCharsets.UTF_8) + "/dequeue")
                .putHeader("Content-Type", "application/json").putHeader(FORWARDED, "1")
                .setTimeout(waitMs + ANSWER_MS);
        if (authorization != null) {
            options.putHeader("Authorization", authorization);
        }
        String body = "{\"max\":" + max + ",\"waitMs\":" + waitMs + "}";
        return client.request(options)
                .chain(request -> request.send(Buffer.buffer(body)))
                .chain(response -> response.body().map(payload -> leases(address, response, payload)))
                .onFailure().recoverWithItem(failure -> {
                    LOG.debugf("dequeue forwarded to %s failed: %s", address, failure.toString());
                    outcomes.get("failed").increment();
                    return List.of();
                });
    }

    private List<LeaseView> leases(String address, HttpClientResponse response, Buffer payload) {
        if (response.statusCode() != 200) {
            LOG.debugf("dequeue forwarded to %s answered %d", address, response.statusCode());
            outcomes.get("failed").increment();
            return List.of();
        }
        try {
            JsonNode items = json.readTree(payload.getBytes()).path("items");
            List<LeaseView> leases = new ArrayList<>(items.size());
            for (JsonNode item : items) {
                leases.add(json.treeToValue(item, LeaseView.class));
            }
            outcomes.get(leases.isEmpty() ? "empty" : "jobs").increment();
            return leases;
        } catch (java.io.IOException e) {
            LOG.debugf("dequeue forwarded to %s answered what is no page of leases: %s", address, e.getMessage());
            outcomes.get("failed").increment();
            return List.of();
        }
    }

    @PreDestroy
    void close() {
        client.closeAndAwait();
    }
}
