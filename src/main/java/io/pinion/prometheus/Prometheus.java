package io.pinion.prometheus;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.pinion.failure.Unavailable;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.core.http.HttpClient;

/**
 * Instant queries against the cluster's Prometheus ({@code GET /api/v1/query}), non-blocking. A Prometheus that does
 * not answer within {@code pinion.prometheus.timeout}, or answers with an error, fails the query with
 * {@link Unavailable} ("prometheus"): the caller answers 503 at once.
 */
@ApplicationScoped
public class Prometheus {

    /** One series of an instant vector: its labels and its value. */
    public record Sample(Map<String, String> labels, double value) {

        public String label(String name) {
            return labels.get(name);
        }
    }

    private final PrometheusConfig config;
    private final ObjectMapper json;
    private final HttpClient client;

    Prometheus(PrometheusConfig config, ObjectMapper json, Vertx vertx) {
        this.config = config;
        this.json = json;
        this.client = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(true).setMaxPoolSize(4)
                .setConnectTimeout((int) config.timeout().toMillis()));
    }

    /** Whether a Prometheus is configured. */
    public boolean configured() {
        return config.url().isPresent();
    }

    /** The scrape job of the instances. */
    public String job() {
        return config.job();
    }

    /** The instant vector {@code promql} evaluates to now. */
    public Uni<List<Sample>> query(String promql) {
        URI base = URI.create(config.url().orElseThrow(() -> new IllegalStateException("no pinion.prometheus.url")));
        String path = (base.getPath() == null ? "" : base.getPath().replaceAll("/$", "")) + "/api/v1/query?query="
                + URLEncoder.encode(promql, StandardCharsets.UTF_8);
        RequestOptions options = new RequestOptions().setMethod(HttpMethod.GET).setHost(base.getHost())
                .setPort(base.getPort() > 0 ? base.getPort() : 80).setURI(path)
                .setTimeout(config.timeout().toMillis());
        return client.request(options)
                .chain(request -> request.send())
                .chain(response -> response.body().map(body -> {
                    if (response.statusCode() != 200) {
                        throw new IllegalStateException("HTTP " + response.statusCode());
                    }
                    return samples(body.getBytes());
                }))
                .ifNoItem().after(config.timeout()).fail()
                .onFailure(failure -> !(failure instanceof Unavailable))
                .transform(failure -> new Unavailable("prometheus", failure));
    }

    private List<Sample> samples(byte[] body) {
        try {
            JsonNode root = json.readTree(body);
            if (!"success".equals(root.path("status").asText())) {
                throw new IllegalStateException("query failed: " + root.path("error").asText());
            }
            List<Sample> samples = new ArrayList<>();
            for (JsonNode series : root.path("data").path("result")) {
                Map<String, String> labels = new HashMap<>();
                series.path("metric")
                        .fields()
                        .forEachRemaining(field ->
                                labels.put(field.getKey(), field.getValue().asText()));
                double value = Double.parseDouble(series.path("value").path(1).asText("NaN"));
                samples.add(new Sample(Map.copyOf(labels), value));
            }
            return samples;
        } catch (java.io.IOException e) {
            throw new IllegalStateException("not a Prometheus answer", e);
        }
    }

    @PreDestroy
    void close() {
        client.closeAndAwait();
    }
}
