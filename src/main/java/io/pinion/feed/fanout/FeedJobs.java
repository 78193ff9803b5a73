package io.pinion.feed.fanout;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.pinion.queue.JobWriter;
import io.pinion.queue.NewJob;
import io.pinion.queue.QueueRegistry;
import io.smallrye.mutiny.Uni;

/**
 * Enqueues the feed's jobs, bodies as JSON.
 */
@ApplicationScoped
public class FeedJobs {

    public static final String FANOUT = "feed-fanout";
    public static final String POOL_INSERT = "feed-pool-insert";
    public static final String PERSIST = "feed-persist";
    public static final String RELATED = "feed-related";
    public static final String PURGE = "feed-purge";
    public static final String REGENERATE = "feed-regenerate";
    public static final String TRIM = "feed-trim";

    private final QueueRegistry queues;
    private final JobWriter writer;
    private final ObjectMapper json;

    FeedJobs(QueueRegistry queues, JobWriter writer, ObjectMapper json) {
        this.queues = queues;
        this.writer = writer;
        this.json = json;
    }

    public Uni<Void> enqueue(String queue, List<?> bodies) {
        if (bodies.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        long now = System.currentTimeMillis();
        List<NewJob> jobs = bodies.stream().map(body -> new NewJob(bytes(body), 2, now, null)).toList();
        return queues.get(queue).chain(found -> writer.enqueue(found, jobs)).replaceWithVoid();
    }

    /** One job that is not enqueued again while a job with the same key is pending or running. */
    public Uni<Void> enqueueOnce(String queue, Object body, String dedupeKey) {
        NewJob job = new NewJob(bytes(body), 2, System.currentTimeMillis(), dedupeKey);
        return queues.get(queue).chain(found -> writer.enqueue(found, List.of(job))).replaceWithVoid();
    }

    public <T> T read(byte[] body, Class<T> type) {
        try {
            return json.readValue(body, type);
        } catch (IOException e) {
            throw new IllegalArgumentException("not a " + type.getSimpleName() + ": " + e.getMessage(), e);
        }
    }

    /** A {@code feed-fanout} body: a {@link FanoutJob}, or one written in the earlier shape ({@link FanoutPage}). */
    public FanoutJob readFanout(byte[] body) {
        try {
            JsonNode tree = json.readTree(body);
            if (tree == null || !tree.isObject()) {
                throw new IllegalArgumentException("not a fan-out job: "
                        + (tree == null ? "empty" : tree.getNodeType()));
            }
            return tree.has("kind") ? json.treeToValue(tree, FanoutJob.class)
                    : json.treeToValue(tree, FanoutPage.class).toJob();
        } catch (IOException e) {
            throw new IllegalArgumentException("not a fan-out job: " + e.getMessage(), e);
        }
    }

    private byte[] bytes(Object body) {
        try {
            return json.writeValueAsString(body).getBytes(StandardCharsets.UTF_8);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
