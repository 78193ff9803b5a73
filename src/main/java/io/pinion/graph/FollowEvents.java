package io.pinion.graph;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.pinion.failure.Conflict;
import io.pinion.failure.NotFound;
import io.pinion.failure.Outages;
import io.pinion.queue.JobWriter;
import io.pinion.queue.NewJob;
import io.pinion.queue.QueueConfig;
import io.pinion.queue.QueueRegistry;
import io.pinion.queue.QueueSettings;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/**
 * Emits a job on queue {@code feed-follow-events} for every follow change that altered the graph, so the home
 * feed can backfill a new follow or clean up after an unfollow (see {@link FollowEvent} for the body).
 */
@ApplicationScoped
public class FollowEvents {

    public static final String QUEUE = "feed-follow-events";
    private static final Logger LOG = Logger.getLogger(FollowEvents.class);

    private final QueueRegistry queues;
    private final QueueSettings settings;
    private final JobWriter writer;
    private final ObjectMapper json;
    private final GraphConfig config;

    FollowEvents(
            QueueRegistry queues, QueueSettings settings, JobWriter writer, ObjectMapper json, GraphConfig config) {
        this.queues = queues;
        this.settings = settings;
        this.writer = writer;
        this.json = json;
        this.config = config;
    }

    /**
     * Enqueues the event. The follow itself is already durable in Redis, so a failure here is logged and the
     * request still succeeds; the feed then misses one backfill or cleanup, which its own reads tolerate.
     */
    public Uni<Void> emit(FollowEvent event) {
        if (!config.feedEvents()) {
            return Uni.createFrom().voidItem();
        }
        NewJob job =
                new NewJob(body(event), event.type().startsWith("unfollow") ? 2 : 1, System.currentTimeMillis(), null);
        return queue()
                .chain(queue -> writer.enqueue(queue, List.of(job)))
                .replaceWithVoid()
                .onFailure().recoverWithItem(failure -> {
                    LOG.warnf("feed event %s %s -> %s not enqueued: %s", event.type(), event.userId(), event.target(),
                            Outages.describe(failure));
                    return null;
                });
    }

    /**
     * Enqueues events in batches whatever {@code pinion.graph.feed-events} says (bulk loads emit the events they
     * want the feed to act on); failures fail the returned Uni.
     */
    public Uni<Void> enqueueAll(List<FollowEvent> batch) {
        List<NewJob> jobs = batch.stream()
                .map(event -> new NewJob(body(event), 1, System.currentTimeMillis(), null))
                .toList();
        if (jobs.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return queue().chain(queue -> Multi.createFrom().iterable(chunks(jobs, 500))
                .onItem().transformToUni(chunk -> writer.enqueue(queue, chunk)).merge(4)
                .collect().last()).replaceWithVoid();
    }

    private static <T> List<List<T>> chunks(List<T> items, int size) {
        List<List<T>> chunks = new ArrayList<>();
        for (int start = 0; start < items.size(); start += size) {
            chunks.add(items.subList(start, Math.min(items.size(), start + size)));
        }
        return chunks;
    }

    private Uni<io.pinion.queue.Queue> queue() {
        return queues.get(QUEUE)
                .onFailure(NotFound.class)
                .recoverWithUni(missing -> queues.create(QUEUE, QueueConfig.defaults(settings.maxBodyBytes())))
                .onFailure(Conflict.class).recoverWithUni(raced -> queues.get(QUEUE));
    }

    private byte[] body(FollowEvent event) {
        try {
            return json.writeValueAsString(event).getBytes(StandardCharsets.UTF_8);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
